import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';

@ArgsType()
export class SmsNumberListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only paused (true) or only active (false) numbers.' })
  paused?: boolean | null;
}

@ArgsType()
export class SmsNumberIdArgs {
  @Field(() => ID) sms_number_id!: string;
}

@ArgsType()
export class UpdateSmsNumberArgs {
  @Field(() => ID) sms_number_id!: string;
  @Field({ description: 'A paused number sends nothing: sends from it are refused, queued texts wait.' }) paused!: boolean;
}

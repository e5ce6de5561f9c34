import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';

@ArgsType()
export class SmsMessageListArgs extends PageArgs {}

@ArgsType()
export class SmsMessageIdArgs {
  @Field(() => ID) sms_message_id!: string;
}

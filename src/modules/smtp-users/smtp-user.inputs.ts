import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { MaxLen } from '../../graphql/validation.js';

@ArgsType()
export class SmtpUserListArgs extends PageArgs {
  @Field(() => ID) domain_id!: string;
}

@ArgsType()
export class SmtpUserIdArgs {
  @Field(() => ID) domain_id!: string;
  @Field(() => ID) smtp_user_id!: string;
}

@ArgsType()
export class CreateSmtpUserArgs {
  @Field(() => ID) domain_id!: string;
  @Field() @MaxLen(50) name!: string;
  @Field(() => Boolean, { nullable: true, description: 'Defaults to true.' }) enabled?: boolean | null;
}

@ArgsType()
export class UpdateSmtpUserArgs {
  @Field(() => ID) domain_id!: string;
  @Field(() => ID) smtp_user_id!: string;
  @Field(() => String, { nullable: true }) @MaxLen(50) name?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

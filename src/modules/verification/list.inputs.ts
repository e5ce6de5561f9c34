import { ArrayMinSize } from 'class-validator';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachMaxLen, MaxItems, MaxLen, MinInt } from '../../graphql/validation.js';
import { msg } from '../../core/errors.js';

/** The most addresses one list takes in a request (bounds one request's insert and credit reservation). */
export const LIST_MAX_EMAILS = 10_000;

/** Addresses are not validated as emails here: a malformed one is the `syntax_error` result. */
@ArgsType()
export class CreateVerificationListArgs {
  @Field() @MaxLen(255) name!: string;

  @Field(() => [String])
  @ArrayMinSize(1, { message: () => msg.required('emails') })
  @MaxItems(LIST_MAX_EMAILS)
  @EachMaxLen(320)
  emails!: string[];
}

@ArgsType()
export class VerificationListIdArgs {
  @Field(() => ID) email_verification_id!: string;
}

@ArgsType()
export class VerificationListsArgs extends PageArgs {}

@ArgsType()
export class VerificationListResultsArgs extends PageArgs {
  @Field(() => ID) email_verification_id!: string;
}

/** `page`/`limit` apply to `emails` only when detailed; that limit is 1..100 (checked in the service). */
@ArgsType()
export class VerificationListArgs {
  @Field(() => ID) email_verification_id!: string;
  @Field(() => Boolean, { defaultValue: false }) detailed: boolean = false;
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) limit: number = 25;
}

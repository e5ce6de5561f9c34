import { ArrayMinSize } from 'class-validator';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachMaxLen, EachOneOf, MaxItems, MaxLen, MinInt } from '../../graphql/validation.js';
import { VERIFICATION_RESULTS } from '../events/verification-events.js';
import { msg } from '../../core/errors.js';

/** The most addresses one list takes in a request (bounds one request's insert and credit reservation). */
export const LIST_MAX_EMAILS = 10_000;
/** The most addresses a list uploaded in chunks may reach. */
export const LIST_MAX_TOTAL = 1_000_000;

/** Addresses are not validated as emails here: a malformed one is the `syntax_error` result. */
@ArgsType()
export class CreateVerificationListArgs {
  @Field() @MaxLen(255) name!: string;

  @Field(() => [String])
  @ArrayMinSize(1, { message: () => msg.required('emails') })
  @MaxItems(LIST_MAX_EMAILS)
  @EachMaxLen(320)
  emails!: string[];

  @Field(() => Boolean, {
    defaultValue: false,
    description: 'true: the list stays `uploading`, `emails` being its first chunk; add more with add_email_verification_list_emails, then finish_email_verification_list_upload.',
  })
  uploading: boolean = false;
}

/** One more chunk of an `uploading` list. */
@ArgsType()
export class AddVerificationListEmailsArgs {
  @Field(() => ID) email_verification_id!: string;

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

  @Field(() => [String], { nullable: true, description: 'Only addresses with one of these results (`result[]`): the values of SPEC.md\'s results table.' })
  @EachOneOf(VERIFICATION_RESULTS)
  result?: string[] | null;

  // The official SDK's getListResult sends its `results` option as `results[0]=valid`: the same
  // filter under that name, so its callers are not silently handed every address.
  @Field(() => [String], { nullable: true, description: 'The same filter as `result`, under the name the official SDK sends.' })
  @EachOneOf(VERIFICATION_RESULTS)
  results?: string[] | null;
}

/** `page`/`limit` apply to `emails` only when detailed; that limit is 1..100 (checked in the service). */
@ArgsType()
export class VerificationListArgs {
  @Field(() => ID) email_verification_id!: string;
  @Field(() => Boolean, { defaultValue: false }) detailed: boolean = false;
  @Field(() => Int, { defaultValue: 1 }) @MinInt(1) page: number = 1;
  @Field(() => Int, { defaultValue: 25 }) limit: number = 25;
}

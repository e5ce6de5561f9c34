import { ArgsType, Field, ID } from 'type-graphql';
import { MaxLen } from '../../graphql/validation.js';

/** The address is not validated as an email here: a malformed one is the `syntax_error` result. */
@ArgsType()
export class VerifyEmailArgs {
  @Field() @MaxLen(320) email!: string;
}

@ArgsType()
export class AsyncVerificationIdArgs {
  @Field(() => ID) email_verification_id!: string;
}

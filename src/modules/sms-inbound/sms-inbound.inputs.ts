import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { MaxLen } from '../../graphql/validation.js';
import { SMS_LIMITS } from '../sms/send.inputs.js';

@InputType('SmsInboundFilterInput')
export class SmsInboundFilterInput {
  @Field({ description: 'equal, not-equal, contains, not-contains, starts-with, ends-with, not-starts-with, not-ends-with' })
  comparer!: string;

  @Field({ description: 'Compared with the text (surrounding spaces trimmed), ignoring case; at most 255 characters.' })
  value!: string;
}

@ArgsType()
export class SmsInboundListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) sms_number_id?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

@ArgsType()
export class SmsInboundIdArgs {
  @Field(() => ID) sms_inbound_id!: string;
}

@ArgsType()
export class CreateSmsInboundArgs {
  @Field(() => ID, { description: 'An SMS number of the account.' }) sms_number_id!: string;

  @Field({ description: 'At most 191 characters.' }) name!: string;

  @Field({ description: 'The http(s) URL texts are POSTed to, signed with the route\'s secret; at most 255 characters.' })
  forward_url!: string;

  @Field(() => SmsInboundFilterInput, { nullable: true, description: 'Which texts are forwarded; none: every text.' })
  filter?: SmsInboundFilterInput | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
}

/** Only the fields sent change; `filter: null` removes the filter (every text is forwarded). */
@ArgsType()
export class UpdateSmsInboundArgs {
  @Field(() => ID) sms_inbound_id!: string;
  @Field(() => ID, { nullable: true }) sms_number_id?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) forward_url?: string | null;
  @Field(() => SmsInboundFilterInput, { nullable: true }) filter?: SmsInboundFilterInput | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

/** A text as if `from` sent it to one of the account's numbers: the SMS sandbox's way in. */
@ArgsType()
export class SimulateSmsInboundArgs {
  @Field(() => ID, { description: 'An SMS number of the account: the text arrives at it.' }) sms_number_id!: string;

  @Field({ description: 'Who sent it, in E.164 format (e.g. +15551234567).' })
  @MaxLen(16)
  from!: string;

  @Field({ description: 'At most 2048 characters, not blank.' })
  @MaxLen(SMS_LIMITS.text)
  text!: string;
}

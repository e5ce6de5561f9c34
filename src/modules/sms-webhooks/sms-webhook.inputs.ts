import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachOneOf, MaxLen } from '../../graphql/validation.js';

/** SPEC.md "SMS events": what an SMS webhook may subscribe to. */
export const SMS_WEBHOOK_EVENTS = ['sms.sent', 'sms.delivered', 'sms.failed'] as const;

@ArgsType()
export class SmsWebhookListArgs extends PageArgs {
  @Field(() => ID) sms_number_id!: string;
}

@ArgsType()
export class SmsWebhookIdArgs {
  @Field(() => ID) sms_webhook_id!: string;
}

@ArgsType()
export class CreateSmsWebhookArgs {
  @Field({ description: 'http(s) URL with a public address; it must answer the test request with 2xx. Unique per SMS number.' })
  @MaxLen(191)
  url!: string;

  @Field() @MaxLen(191) name!: string;

  @Field(() => [String], { description: 'sms.sent, sms.delivered, sms.failed.' })
  @EachOneOf(SMS_WEBHOOK_EVENTS)
  events!: string[];

  @Field(() => ID, { description: 'An SMS number of the account.' }) sms_number_id!: string;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
}

@ArgsType()
export class UpdateSmsWebhookArgs {
  @Field(() => ID) sms_webhook_id!: string;

  @Field(() => String, { nullable: true }) @MaxLen(191) url?: string | null;

  @Field(() => String, { nullable: true }) @MaxLen(191) name?: string | null;

  @Field(() => [String], { nullable: true }) @EachOneOf(SMS_WEBHOOK_EVENTS) events?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'true re-enables a paused webhook.' }) enabled?: boolean | null;
}

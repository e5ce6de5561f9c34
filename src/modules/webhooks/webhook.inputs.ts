import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachOneOf, MaxLen } from '../../graphql/validation.js';

/** SPEC.md "Email event kinds": what an email webhook may subscribe to. */
export const WEBHOOK_EVENTS = [
  'activity.sent',
  'activity.delivered',
  'activity.soft_bounced',
  'activity.hard_bounced',
  'activity.deferred',
  'activity.opened',
  'activity.opened_unique',
  'activity.clicked',
  'activity.clicked_unique',
  'activity.unsubscribed',
  'activity.spam_complaint',
  'activity.survey_opened',
  'activity.survey_submitted',
  'sender_identity.verified',
  'maintenance.start',
  'maintenance.end',
  'inbound_forward.failed',
  'inbound_message.rejected',
  'email_single.verified',
  'email_list.verified',
  'bulk_email.completed',
  'recipient.on_hold_added',
  'recipient.on_hold_removed',
] as const;

@ArgsType()
export class WebhookListArgs extends PageArgs {
  @Field(() => ID) domain_id!: string;
}

@ArgsType()
export class WebhookIdArgs {
  @Field(() => ID) webhook_id!: string;
}

@ArgsType()
export class CreateWebhookArgs {
  @Field({ description: 'http(s) URL with a public address; it must answer the test request with 2xx.' })
  @MaxLen(191)
  url!: string;

  @Field() @MaxLen(191) name!: string;

  @Field(() => [String], { description: 'Email event kinds (SPEC.md).' })
  @EachOneOf(WEBHOOK_EVENTS)
  events!: string[];

  @Field(() => ID) domain_id!: string;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
}

@ArgsType()
export class UpdateWebhookArgs {
  @Field(() => ID) webhook_id!: string;

  @Field(() => String, { nullable: true }) @MaxLen(191) url?: string | null;

  @Field(() => String, { nullable: true }) @MaxLen(191) name?: string | null;

  @Field(() => [String], { nullable: true }) @EachOneOf(WEBHOOK_EVENTS) events?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'true re-enables a paused webhook.' }) enabled?: boolean | null;
}

import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { MaxLen } from '../../graphql/validation.js';

@ObjectType({ description: 'One HTTP request of a webhook: a delivery attempt, or the test request of a create or update.' })
export class WebhookLogEntry {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true, description: 'The `webhook-id` header of the delivery; null for a test request.' })
  delivery_id!: string | null;
  @Field({ description: 'The event type sent.' }) type!: string;
  @Field(() => IsoTimestamp) attempted_at!: Date;
  @Field({ description: 'A 2xx answer arrived within the timeout.' }) success!: boolean;
  @Field(() => Int, { nullable: true, description: 'The HTTP status; null when no answer arrived.' }) status!: number | null;
  @Field(() => Int) duration_ms!: number;
  @Field(() => String, { nullable: true, description: 'The first characters of the answer.' }) response_excerpt!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType()
export class WebhookLogPage {
  @Field(() => [WebhookLogEntry]) data!: WebhookLogEntry[];
  @Field(() => PageMeta) meta!: PageMeta;
}

@ObjectType()
export class WebhookReplay {
  @Field(() => Int, { description: 'How many failed or given-up deliveries were queued again.' }) replayed!: number;
}

@ArgsType()
export class WebhookLogArgs extends PageArgs {
  @Field(() => ID) webhook_id!: string;
}

@ArgsType()
export class ReplayWebhookArgs {
  @Field(() => ID) webhook_id!: string;

  @Field({ description: 'Start of the window (deliveries created at or after it): ISO 8601 or Unix seconds.' })
  @MaxLen(40)
  since!: string;

  @Field(() => String, { nullable: true, description: 'End of the window (default: now): ISO 8601 or Unix seconds.' })
  @MaxLen(40)
  until?: string | null;
}

@ObjectType({ description: 'One event for one webhook, with the exact body its requests carry (the same on every retry).' })
export class WebhookDeliveryDetail {
  @Field(() => ID, { description: 'The webhook-id header of its requests.' }) id!: string;
  @Field(() => ID) webhook_id!: string;
  @Field({ description: 'The event type.' }) type!: string;
  @Field({ description: 'pending, delivered, failed or gave_up' }) state!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true }) last_status!: number | null;
  @Field({ description: 'The JSON body sent, as sent.' }) body!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ArgsType()
export class WebhookDeliveryArgs {
  @Field(() => ID)
  @MaxLen(64)
  delivery_id!: string;
}

import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DeliveryDiagnosisType } from '../activity/diagnosis.type.js';
import { PlainTimestamp } from '../../graphql/scalars.js';
import { RecipientType } from '../recipients/recipient.type.js';

@ObjectType('EmailHeader')
export class EmailHeaderType {
  @Field() name!: string;
  @Field() value!: string;
}

/** One email of the email log: a copy of a message for one `to` recipient. Plain timestamps, as activity has. */
@ObjectType()
export class LoggedEmail {
  @Field(() => ID) id!: string;
  @Field(() => ID, { description: 'The x-message-id of the send it belongs to.' }) message_id!: string;
  @Field(() => ID) domain_id!: string;
  @Field(() => ID, { nullable: true }) template_id!: string | null;
  @Field() from!: string;
  @Field(() => String, { nullable: true }) from_name!: string | null;
  @Field({ description: 'The recipient address.' }) to!: string;
  @Field(() => String, { nullable: true }) to_name!: string | null;
  @Field({ description: 'After personalization.' }) subject!: string;
  @Field(() => [String], { nullable: true, description: 'Null when the message had no tags.' }) tags!: string[] | null;
  @Field({ description: 'queued, scheduled, paused, deferred, sent, delivered, soft_bounced, hard_bounced, suppressed, rejected or cancelled' })
  status!: string;
  @Field(() => String, { nullable: true, description: 'Why it was not sent, when status is suppressed.' })
  suppression_reason!: string | null;
  @Field(() => [String], { description: 'opened, clicked, unsubscribed: what the recipient has done.' }) interaction!: string[];
  @Field(() => [EmailHeaderType], { nullable: true, description: 'The custom headers of the send.' }) headers!: EmailHeaderType[] | null;
  @Field(() => String, { nullable: true, description: 'Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise.' })
  text!: string | null;
  @Field(() => String, { nullable: true, description: 'Null in lists, and once delivered with track_content off (the bodies are dropped); the single email has it otherwise.' })
  html!: string | null;
  @Field(() => PlainTimestamp, { nullable: true, description: 'First open.' }) opened_at!: Date | null;
  @Field(() => PlainTimestamp, { nullable: true, description: 'First click.' }) clicked_at!: Date | null;
  @Field(() => PlainTimestamp, { nullable: true }) unsubscribed_at!: Date | null;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
}

@ObjectType({ description: 'One step in an email\'s life.' })
export class EmailActivityEntry {
  @Field(() => ID) id!: string;
  @Field() type!: string;
  @Field(() => String, { nullable: true, description: 'Set only when type is suppressed.' }) suppression_reason!: string | null;
  @Field(() => PlainTimestamp) created_at!: Date;
}

@ObjectType({ description: 'The message as it went out, kept by the capture transport.' })
export class EmailContent {
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => String, { nullable: true, description: 'The whole signed MIME message.' }) raw!: string | null;
}

@ObjectType({ description: 'A webhook delivery of one of the email\'s events (its webhook log has the requests).' })
export class EmailWebhookDelivery {
  @Field(() => ID, { description: 'The `webhook-id` header of the delivery.' }) id!: string;
  @Field(() => ID) webhook_id!: string;
  @Field() webhook_name!: string;
  @Field({ description: 'The event type sent.' }) type!: string;
  @Field({ description: 'pending, delivered, failed or gave_up' }) state!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true, description: 'The HTTP status of the last attempt; null before one got an answer.' })
  last_status!: number | null;
  @Field(() => PlainTimestamp) created_at!: Date;
}

@ObjectType()
export class LoggedEmailDetail extends LoggedEmail {
  @Field(() => RecipientType) recipient!: RecipientType;
  @Field(() => [EmailActivityEntry], { description: 'Oldest first.' }) activity!: EmailActivityEntry[];
  @Field(() => EmailContent, { nullable: true, description: 'Null unless the capture transport stored the message, and once delivered with track_content off.' })
  content!: EmailContent | null;
  @Field(() => String, {
    nullable: true,
    description: "The receiving server's last answer, or the error, for this email (a bounce's diagnostic); GraphQL only.",
  })
  last_response!: string | null;
  @Field(() => DeliveryDiagnosisType, { nullable: true, description: 'Set while the email is deferred or once it bounced: its last answer read for people; GraphQL only.' })
  diagnosis!: DeliveryDiagnosisType | null;
}

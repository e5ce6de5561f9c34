import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import type { ReportedSmsStatus, SmsRecipientStatus, SmsStatus } from './sms.statuses.js';

/**
 * A phone number the account has sent to (or that texted one of its numbers). `opt_out` numbers
 * are skipped by sends: an inbound STOP sets it, START (or PUT status=active) clears it.
 */
@Entity({ tableName: 'sms_recipients' })
@Unique({ properties: ['account', 'number'] })
@Index({ properties: ['account', 'created_at'] })
export class SmsRecipient extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** E.164, e.g. +15551234567. */
  @Property({ type: 'string', length: 32 })
  number!: string;

  @Property({ type: 'string', length: 10 })
  status: Opt<SmsRecipientStatus> = 'active';
}

/** One `POST /v1/sms` request: the text as sent (before personalization) to its recipients. */
@Entity({ tableName: 'sms_messages' })
@Index({ properties: ['account', 'created_at'] })
export class SmsMessage extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade' })
  sms_number!: SmsNumber;

  @Property({ type: 'string', length: 32 })
  from!: string;

  @Property({ type: 'text[]' })
  to: Opt<string[]> = [];

  @Property({ type: 'text' })
  text!: string;

  /** `[{phone_number, data}]` as the request gave it. */
  @Property({ type: 'json' })
  personalization: Opt<unknown[]> = [];
}

/**
 * One SMS to one recipient. status: queued → sent → delivered | failed (`skipped` for an
 * opted-out recipient). `provider_id` is the provider's message id (Twilio's SID), by which its
 * status callbacks find the row.
 */
@Entity({ tableName: 'sms' })
@Index({ properties: ['account', 'created_at'] })
@Index({ properties: ['message', 'created_at'] })
export class Sms extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => SmsMessage, { deleteRule: 'cascade' })
  message!: SmsMessage;

  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade' })
  sms_number!: SmsNumber;

  @ManyToOne(() => SmsRecipient, { deleteRule: 'cascade' })
  recipient!: SmsRecipient;

  @Property({ type: 'string', length: 32 })
  from!: string;

  @Property({ type: 'string', length: 32 })
  to!: string;

  /** The text this recipient gets (personalized). */
  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'string', length: 20 })
  status: Opt<SmsStatus> = 'queued';

  @Property({ type: 'integer' })
  segment_count: Opt<number> = 1;

  @Property({ type: 'string', length: 64, nullable: true })
  error_type: string | null = null;

  @Property({ type: 'text', nullable: true })
  error_description: string | null = null;

  @Property({ type: 'string', length: 64, nullable: true, unique: true })
  provider_id: string | null = null;
}

/** A status change of one SMS (queued, sent, delivered, failed): `GET /v1/sms-activity`. */
@Entity({ tableName: 'sms_activities' })
@Index({ properties: ['account', 'created_at'] })
@Index({ properties: ['sms_number', 'created_at'] })
export class SmsActivity extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade' })
  sms_number!: SmsNumber;

  @ManyToOne(() => Sms, { deleteRule: 'cascade' })
  sms!: Sms;

  @Property({ type: 'string', length: 20 })
  status!: ReportedSmsStatus;
}

/**
 * An SMS inbound route: texts to its number that pass its filter are POSTed to `forward_url`,
 * signed with the route's secret. The POSTs go through the webhook engine: each route owns a
 * `webhooks` row of kind `sms_inbound` (`webhook`) that carries the URL and the sealed secret.
 */
@Entity({ tableName: 'sms_inbounds' })
@Index({ properties: ['account', 'created_at'] })
export class SmsInbound extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade' })
  sms_number!: SmsNumber;

  @Property({ type: 'string', length: 191 })
  name!: string;

  /** equal, not-equal, contains, not-contains, starts-with, ends-with, not-starts-with, not-ends-with; null: every text. */
  @Property({ type: 'string', length: 20, nullable: true })
  filter_comparer: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  filter_value: string | null = null;

  @Property({ type: 'string', length: 255 })
  forward_url!: string;

  @Property({ type: 'boolean' })
  enabled: Opt<boolean> = true;

  /** The id of its `webhooks` row (kind sms_inbound). */
  @Property({ type: 'string', length: 32 })
  webhook_id!: string;
}

/** A text that came in to one of the account's numbers (kept once per provider message id). */
@Entity({ tableName: 'sms_inbound_messages' })
@Index({ properties: ['sms_number', 'created_at'] })
export class SmsInboundMessage extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade' })
  sms_number!: SmsNumber;

  @Property({ type: 'string', length: 32 })
  from!: string;

  @Property({ type: 'string', length: 32 })
  to!: string;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'string', length: 64, nullable: true, unique: true })
  provider_id: string | null = null;
}

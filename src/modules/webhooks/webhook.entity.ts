import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { sortableId } from '../../lib/ids.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';

/** Why a webhook stopped receiving: too many failures, a 410 Gone, or down past the retry window. */
export type WebhookPause = 'failures' | 'gone' | 'retry_window';

/**
 * - `email`: an email webhook (COMPAT.md "Email webhooks"), events of one domain.
 * - `sms`: an SMS webhook, `sms.*` events of one SMS number.
 * - `sms_inbound`: the delivery target of an SMS inbound route (sms/sms.entity.ts SmsInbound);
 *   never listed as a webhook.
 * - `inbound`: the delivery target of an email inbound route's webhook forward (its id is the
 *   forward's); never listed as a webhook.
 */
export const WEBHOOK_KIND = { email: 'email', sms: 'sms', smsInbound: 'sms_inbound', inbound: 'inbound' } as const;
export type WebhookKind = (typeof WEBHOOK_KIND)[keyof typeof WEBHOOK_KIND];

/** Where the webhook engine POSTs: a URL, its signing secret, and what it is subscribed to. */
@Entity({ tableName: 'webhooks' })
@Unique({ properties: ['domain', 'url'] })
@Unique({ properties: ['sms_number', 'kind', 'url'] })
@Index({ properties: ['account', 'created_at'] })
export class Webhook extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'string', length: 20 })
  kind: Opt<WebhookKind> = WEBHOOK_KIND.email;

  /** Set for email webhooks only. */
  @ManyToOne(() => Domain, { deleteRule: 'cascade', nullable: true })
  domain!: Domain | null;

  /** Set for sms and sms_inbound webhooks. */
  @ManyToOne(() => SmsNumber, { deleteRule: 'cascade', nullable: true })
  @Index()
  sms_number: SmsNumber | null = null;

  @Property({ type: 'string', length: 191 })
  name!: string;

  /** 191 for webhooks (SPEC.md Limits, checked by their services); an SMS inbound route's forward_url may have 255. */
  @Property({ type: 'string', length: 255 })
  url!: string;

  @Property({ type: 'text[]' })
  events: Opt<string[]> = [];

  @Property({ type: 'boolean' })
  enabled: Opt<boolean> = true;

  @Property({ type: 'boolean' })
  editable: Opt<boolean> = true;

  /**
   * The signing secret, shown in the record (COMPAT.md) and needed to sign every request, so it
   * cannot be hashed: it is sealed with APP_SECRET (lib/secrets.ts encrypt/decrypt).
   */
  @Property({ type: 'text' })
  secret_enc!: string;

  /** Set when the service paused it; re-enabling clears it. */
  @Property({ type: 'string', length: 20, nullable: true })
  paused_reason: WebhookPause | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  paused_at: Date | null = null;

  /** The failure notification of the current 24 h window went out at this time. */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  notified_at: Date | null = null;
}

/** A delivery's states, as stored; SQL gets them as parameters (webhook.repository.ts). */
export const DELIVERY = { pending: 'pending', delivered: 'delivered', failed: 'failed', gaveUp: 'gave_up' } as const;
export type DeliveryState = (typeof DELIVERY)[keyof typeof DELIVERY];

/**
 * One event for one webhook. Its id is the `webhook-id` header, the same on every retry, and
 * `body` the exact bytes sent, so a retry is signed over the same payload. Partitioned by week of
 * its sortable id (migration Migration20261129000000_partitioned_webhook_deliveries), so the
 * primary key is `id` alone: a delivery is written once per webhook and event because its id is
 * fixed when its event is taken (and carried by its lease row), and every write of it conflicts
 * on that id.
 */
@Entity({ tableName: 'webhook_deliveries' })
@Index({ properties: ['webhook', 'event_id'] })
// The claim's queue: pending deliveries by when they are due (dispatch.repository.ts CLAIM); the
// other states, most rows, need no entry.
@Index({
  name: 'webhook_deliveries_due_index',
  expression: `create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = '${DELIVERY.pending}'`,
})
@Index({ properties: ['webhook', 'created_at'] })
export class WebhookDelivery {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = `msg_${sortableId(24)}`;

  // No foreign key: a trigger on webhooks deletes a deleted webhook's deliveries, and the
  // statements that write deliveries lock their webhooks once each (migration
  // Migration20261126011000_webhook_deliveries_cascade says why).
  @ManyToOne(() => Webhook, { createForeignKeyConstraint: false })
  webhook!: Webhook;

  /** The internal event (domain_events.id) it carries. */
  @Property({ type: 'string', length: 32 })
  event_id!: string;

  @Property({ type: 'string', length: 64 })
  type!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'string', length: 20 })
  state: Opt<DeliveryState> = DELIVERY.pending;

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  next_attempt_at: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  last_status: number | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', onUpdate: () => new Date() })
  updated_at: Opt<Date> = new Date();
}

/** One HTTP request of a delivery (or a webhook's test request): the webhook log. */
@Entity({ tableName: 'webhook_attempts' })
@Index({ properties: ['webhook_id', 'attempted_at'] })
export class WebhookAttempt {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = sortableId();

  @Property({ type: 'string', length: 32 })
  webhook_id!: string;

  /** Null for the test request of a create or update. (Not indexed: nothing reads attempts by delivery.) */
  @Property({ type: 'string', length: 32, nullable: true })
  delivery_id: string | null = null;

  @Property({ type: 'string', length: 64 })
  type!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  attempted_at: Opt<Date> = new Date();

  @Property({ type: 'boolean' })
  success!: boolean;

  @Property({ type: 'integer', nullable: true })
  status: number | null = null;

  @Property({ type: 'integer' })
  duration_ms: Opt<number> = 0;

  /** The first bytes of the answer, for the log. */
  @Property({ type: 'string', length: 1000, nullable: true })
  response_excerpt: string | null = null;

  @Property({ type: 'string', length: 1000, nullable: true })
  error: string | null = null;
}

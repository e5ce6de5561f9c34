import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { sortableId } from '../../lib/ids.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { Recipient } from '../recipients/recipient.entity.js';
import type { EmailStatus, MessageStatus } from './message.status.js';

/**
 * A message's content columns as plain rows carry them (the acceptance statement writes them, the
 * delivery statement reads them back): one shape for both, beside the entity that owns them.
 */
export interface MessageContentRow {
  from_email: string;
  from_name: string | null;
  reply_to: Address | null;
  cc: Address[];
  bcc: Address[];
  html: string | null;
  text: string | null;
  personalization: Record<string, Record<string, unknown>>;
  settings: MessageSettings;
  headers: { name: string; value: string }[];
  in_reply_to: string | null;
  references: string[];
  list_unsubscribe: string | null;
  precedence_bulk: boolean | null;
}

export interface Address {
  email: string;
  name?: string | null;
}

export interface MessageSettings {
  track_clicks?: boolean;
  track_opens?: boolean;
  track_content?: boolean;
}

/** One accepted send (POST /v1/email, the GraphQL mutation, one item of a bulk send). */
@Entity({ tableName: 'messages' })
@Index({ properties: ['account', 'created_at'] })
// The waiting messages of a domain (`waiting`: a stored generated column, `status` in
// WAITING_MESSAGE; migration 20261126140000). Indexing the column rather than `status` keeps
// delivery's moves through queued, sending and sent HOT updates.
@Index({
  name: 'messages_domain_id_waiting_index',
  expression: `create index "messages_domain_id_waiting_index" on "messages" ("domain_id") where "waiting"`,
})
export class Message extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  @Property({ type: 'string', length: 32, nullable: true })
  @Index()
  bulk_email_id: string | null = null;

  /** Not a foreign key on purpose: a scheduled send must see that its template was deleted. */
  @Property({ type: 'string', length: 32, nullable: true })
  @Index()
  template_id: string | null = null;

  @Property({ type: 'string', length: 320 })
  from_email!: string;

  @Property({ type: 'string', length: 191, nullable: true })
  from_name: string | null = null;

  @Property({ type: 'json', nullable: true })
  reply_to: Address | null = null;

  @Property({ type: 'json' })
  cc: Opt<Address[]> = [];

  @Property({ type: 'json' })
  bcc: Opt<Address[]> = [];

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text', nullable: true })
  text: string | null = null;

  @Property({ type: 'text', nullable: true })
  html: string | null = null;

  @Property({ type: 'text[]' })
  tags: Opt<string[]> = [];

  @Property({ type: 'string', length: 10, nullable: true })
  language: string | null = null;

  /** Lower-cased recipient address → its `{{var}}` values. */
  @Property({ type: 'json' })
  personalization: Opt<Record<string, Record<string, unknown>>> = {};

  @Property({ type: 'json' })
  settings: Opt<MessageSettings> = {};

  @Property({ type: 'json' })
  headers: Opt<{ name: string; value: string }[]> = [];

  @Property({ type: 'string', length: 998, nullable: true })
  in_reply_to: string | null = null;

  @Property({ type: 'json' })
  references: Opt<string[]> = [];

  @Property({ type: 'string', length: 990, nullable: true })
  list_unsubscribe: string | null = null;

  @Property({ type: 'boolean', nullable: true })
  precedence_bulk: boolean | null = null;

  /**
   * When delivery dropped the bodies (html, text, personalization, attachments' content) because
   * track_content was off; the email log then shows no content. Null while they are kept.
   */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  content_cleared_at: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  send_at: Date | null = null;

  /**
   * When the retention job (modules/retention) may delete the message with its emails, bodies and
   * activities: fixed at acceptance by the account's plan then (config/plans.ts purgeAfter, with the plan's retention days then).
   */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  @Index()
  purge_after: Date | null = null;

  @Property({ type: 'string', length: 20 })
  status: Opt<MessageStatus> = 'queued';

  @Property({ type: 'string', length: 500, nullable: true })
  status_message: string | null = null;
}

/** An attachment, kept apart so that listing messages never reads the bytes. */
@Entity({ tableName: 'message_attachments' })
export class MessageAttachment {
  /** Made at its message's instant (sending/accept.rows.ts): the two share a week. */
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = sortableId();

  // No foreign key: the mail tables are partitioned by week, and a trigger deletes a message's
  // attachments with it (Migration20261129030000_partitioned_mail).
  @ManyToOne(() => Message, { createForeignKeyConstraint: false })
  @Index()
  message!: Message;

  @Property({ type: 'integer' })
  position!: number;

  @Property({ type: 'string', length: 255 })
  filename!: string;

  @Property({ type: 'string', length: 20 })
  disposition: Opt<'inline' | 'attachment'> = 'attachment';

  @Property({ type: 'string', length: 256, nullable: true })
  content_id: string | null = null;

  @Property({ type: 'blob' })
  content!: Buffer;
}

/**
 * One email of a message: a copy for one `to` recipient, personalized and tracked on its own.
 * The first one also carries the message's cc and bcc.
 */
@Entity({ tableName: 'emails' })
@Index({ properties: ['account', 'created_at'] })
@Index({ properties: ['domain', 'created_at'] })
export class Email extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  // No foreign key, as for attachments: a trigger deletes a message's emails with it.
  @ManyToOne(() => Message, { createForeignKeyConstraint: false })
  @Index()
  message!: Message;

  @ManyToOne(() => Recipient, { deleteRule: 'cascade' })
  @Index()
  recipient!: Recipient;

  @Property({ type: 'integer' })
  position: Opt<number> = 0;

  @Property({ type: 'string', length: 320 })
  to_email!: string;

  @Property({ type: 'string', length: 191, nullable: true })
  to_name: string | null = null;

  /** Subject after personalization, for the email log and its filters. */
  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text[]' })
  tags: Opt<string[]> = [];

  @Property({ type: 'string', length: 20 })
  status: Opt<EmailStatus> = 'queued';

  @Property({ type: 'string', length: 30, nullable: true })
  suppression_reason: string | null = null;

  /** The Message-ID header it goes out with, fixed at acceptance (accept.rows.ts). */
  @Property({ type: 'string', length: 255, nullable: true })
  @Index()
  smtp_message_id: string | null = null;

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  /** The last SMTP answer or error, for the email log. */
  @Property({ type: 'text', nullable: true })
  last_response: string | null = null;

  /** Until when a delivery worker holds this pending email (engines/delivery/delivery.repository.ts); null when none does. */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  lease_until: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  opened_at: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  clicked_at: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  unsubscribed_at: Date | null = null;
}

/**
 * A key from the `Idempotency-Key` header: the first answer is kept for 24 h and given again to
 * a retry with the same key, which sends nothing new.
 */
@Entity({ tableName: 'idempotency_keys' })
export class IdempotencyKey {
  @PrimaryKey({ type: 'string', length: 32 })
  account_id!: string;

  @PrimaryKey({ type: 'string', length: 255 })
  key!: string;

  /** sha256 of the route and body: the same key with another request is refused. */
  @Property({ type: 'string', length: 64 })
  request_hash!: string;

  @Property({ type: 'json' })
  response!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  @Index()
  created_at: Opt<Date> = new Date();
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRows, textArray } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';
import { Sms } from './sms.entity.js';
import { ACTIVE_RECIPIENT, QUEUED_SMS, type SmsRecipientStatus } from './sms.statuses.js';

/** A recipient row as a send needs it: its status says whether the number opted out. */
export interface RecipientRow {
  id: string;
  number: string;
  status: SmsRecipientStatus;
}

/** The SQL of texts and their recipients: the statements the ORM's unit of work cannot write. */
export class SmsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * The recipient row of each number, created on first send, in one statement. Rows are taken in
   * number order, so two sends to the same numbers cannot lock them crosswise.
   */
  async upsertRecipients(accountId: string, numbers: string[], now: Date): Promise<Map<string, RecipientRow>> {
    const rows = await sqlRows<RecipientRow>(
      this.em,
      `insert into sms_recipients (id, created_at, updated_at, account_id, number, status)
       select x.id, $1, $1, $2, x.number, $3 from jsonb_to_recordset($4::jsonb) as x(id text, number text)
       on conflict (account_id, number) do update set updated_at = excluded.updated_at
       returning id, number, status`,
      [now, accountId, ACTIVE_RECIPIENT, JSON.stringify([...numbers].sort().map((number) => ({ id: newId(), number })))],
    );
    return new Map(rows.map((r) => [r.number, r]));
  }

  /**
   * The sender of an inbound text becomes a recipient of the account; a keyword (`status`: STOP,
   * START) sets its status, an ordinary text leaves an existing row as it is.
   */
  async recordSender(accountId: string, number: string, status: SmsRecipientStatus | null, now: string): Promise<void> {
    await sqlCount(
      this.em,
      `insert into sms_recipients (id, created_at, updated_at, account_id, number, status)
       values ($1, $2::timestamptz, $2::timestamptz, $3, $4, $5)
       on conflict (account_id, number) do ${status ? 'update set status = excluded.status, updated_at = excluded.updated_at' : 'nothing'}`,
      [newId(), now, accountId, number, status ?? ACTIVE_RECIPIENT],
    );
  }

  /** Locks a text still queued for the send; false when another worker holds it or it has moved on. */
  async lockQueued(smsId: string): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.em, `select id from sms where id = $1 and status = $2 for update skip locked`, [smsId, QUEUED_SMS]);
    return rows.length > 0;
  }

  /**
   * Locks the text a provider's status report is about: by our id when the callback names it (the
   * lock then waits for a send still committing its provider id), else by the provider's id.
   */
  lockForReport(smsId: string | null, providerId: string): Promise<{ id: string; provider_id: string | null }[]> {
    return smsId
      ? sqlRows(this.em, `select id, provider_id from sms where id = $1 for update`, [smsId])
      : sqlRows(this.em, `select id, provider_id from sms where provider_id = $1 for update`, [providerId]);
  }

  /** The recipients this number has texted, as a subquery for a filter on recipient ids. */
  recipientsTextedFrom(smsNumberId: string) {
    return this.em.createQueryBuilder(Sms, 's').select('s.recipient').where({ sms_number: smsNumberId });
  }

  /** Of these messages, those with texts still queued. */
  async messagesWithQueued(messageIds: string[]): Promise<Set<string>> {
    if (!messageIds.length) return new Set();
    const rows = await sqlRows<{ message_id: string }>(
      this.em,
      `select distinct message_id from sms where message_id = any($1::text[]) and status = $2`,
      [textArray(messageIds), QUEUED_SMS],
    );
    return new Set(rows.map((r) => r.message_id));
  }

  /** The messages with texts of this number still queued. */
  async messagesQueuedOn(smsNumberId: string): Promise<string[]> {
    const rows = await sqlRows<{ message_id: string }>(
      this.em,
      `select distinct message_id from sms where sms_number_id = $1 and status = $2`,
      [smsNumberId, QUEUED_SMS],
    );
    return rows.map((r) => r.message_id);
  }
}

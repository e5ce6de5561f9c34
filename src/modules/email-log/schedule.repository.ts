import type { EntityManager } from '@mikro-orm/postgresql';
import { textArray, Where } from '../../db/sql.js';
import { UNTRIED_EMAIL, type EmailStatus, type MessageStatus } from '../messages/status.js';

const CANCELLED = 'cancelled' satisfies MessageStatus & EmailStatus;

/** A message sent with `send_at`, as schedules read it. */
export interface ScheduleRow {
  message_id: string;
  subject: string;
  send_at: unknown;
  status: MessageStatus;
  status_message: string | null;
  created_at: unknown;
}

export type ScheduleDetailRow = ScheduleRow & { d_id: string; d_name: string; d_created_at: unknown; d_updated_at: unknown };

const COLUMNS = 'm.id as message_id, m.subject, m.send_at, m.status, m.status_message, m.created_at';

/** domainIds: the domains it may show (the one asked for, or a limited caller's); unset or null: all of the account's. */
type ScheduleFilter = { accountId: string; domainIds?: readonly string[] | null; statuses?: readonly MessageStatus[] };

/** The list's and the count's conditions, one place so `total` counts what the pages show. */
function scheduleWhere(f: ScheduleFilter): Where {
  const w = new Where().add('m.account_id = ?', f.accountId).add('m.send_at is not null').add('m.status <> ?', CANCELLED);
  if (f.domainIds) w.add('m.domain_id = any(?::text[])', textArray(f.domainIds));
  if (f.statuses) w.add('m.status = any(?::text[])', textArray(f.statuses));
  return w;
}

/** Schedules are the messages with a send time; a cancelled one is gone (never read here). */
export class ScheduleRepository {
  constructor(private readonly em: EntityManager) {}

  /** Newest first. */
  list(f: ScheduleFilter, page: { limit: number; offset: number }): Promise<ScheduleRow[]> {
    const w = scheduleWhere(f);
    return this.em.execute<ScheduleRow[]>(
      `select ${COLUMNS} from messages m where ${w.sql} order by m.created_at desc, m.id desc limit ? offset ?`,
      [...w.params, page.limit, page.offset],
    );
  }

  /** How many schedules `list` pages through, for the full pager's `total`. */
  async count(f: ScheduleFilter): Promise<number> {
    const w = scheduleWhere(f);
    const [row] = await this.em.execute<{ n: number }[]>(`select count(*)::int as n from messages m where ${w.sql}`, w.params);
    return row?.n ?? 0;
  }

  /** One schedule of the account with its domain; null when there is none. */
  async get(messageId: string, accountId: string): Promise<ScheduleDetailRow | null> {
    const [row] = await this.em.execute<ScheduleDetailRow[]>(
      `select ${COLUMNS}, d.id as d_id, d.name as d_name, d.created_at as d_created_at, d.updated_at as d_updated_at
         from messages m join domains d on d.id = m.domain_id
        where m.id = ? and m.account_id = ? and m.send_at is not null and m.status <> ?`,
      [messageId, accountId, CANCELLED],
    );
    return row ?? null;
  }

  /** The schedule's row, held until the transaction ends; null when there is none. */
  async lock(messageId: string, accountId: string): Promise<{ domain_id: string; status: MessageStatus } | null> {
    const [row] = await this.em.execute<{ domain_id: string; status: MessageStatus }[]>(
      `select domain_id, status from messages
        where id = ? and account_id = ? and send_at is not null and status <> ? for update`,
      [messageId, accountId, CANCELLED],
    );
    return row ?? null;
  }

  /** The message and its emails no delivery has tried are cancelled. */
  async cancel(messageId: string): Promise<void> {
    await this.em.execute('update messages set status = ?, updated_at = now() where id = ?', [CANCELLED, messageId]);
    await this.em.execute('update emails set status = ?, updated_at = now() where message_id = ? and status = any(?::text[])', [
      CANCELLED,
      messageId,
      textArray(UNTRIED_EMAIL),
    ]);
  }
}

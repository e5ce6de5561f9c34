import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRow, sqlRows, textArray, Where } from '../../db/sql.js';
import { messageShown, UNTRIED_EMAIL, type EmailStatus, type MessageStatus } from '../messages/message.status.js';

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
  const w = new Where().add('m.account_id = ?', f.accountId).add('m.send_at is not null').add('m.status <> ?', CANCELLED).add(messageShown('m'));
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
    return sqlRows<ScheduleRow>(
      this.em,
      `select ${COLUMNS} from messages m where ${w.sql}
        order by m.created_at desc, m.id desc limit ${w.param(page.limit)} offset ${w.param(page.offset)}`,
      w.params,
    );
  }

  /** How many schedules `list` pages through, for the full pager's `total`. */
  async count(f: ScheduleFilter): Promise<number> {
    const w = scheduleWhere(f);
    const row = await sqlRow<{ n: number }>(this.em, `select count(*)::int as n from messages m where ${w.sql}`, w.params);
    return row?.n ?? 0;
  }

  /** One schedule of the account with its domain; null when there is none. */
  async get(messageId: string, accountId: string): Promise<ScheduleDetailRow | null> {
    return sqlRow<ScheduleDetailRow>(
      this.em,
      `select ${COLUMNS}, d.id as d_id, d.name as d_name, d.created_at as d_created_at, d.updated_at as d_updated_at
         from messages m join domains d on d.id = m.domain_id
        where m.id = $1 and m.account_id = $2 and m.send_at is not null and m.status <> $3 and ${messageShown('m')}`,
      [messageId, accountId, CANCELLED],
    );
  }

  /** The schedule's row, held until the transaction ends; null when there is none. */
  async lock(messageId: string, accountId: string): Promise<{ domain_id: string; status: MessageStatus } | null> {
    return sqlRow<{ domain_id: string; status: MessageStatus }>(
      this.em,
      `select domain_id, status from messages
        where id = $1 and account_id = $2 and send_at is not null and status <> $3 for update`,
      [messageId, accountId, CANCELLED],
    );
  }

  /** The message and its emails no delivery has tried are cancelled. */
  async cancel(messageId: string): Promise<void> {
    await sqlCount(this.em, 'update messages set status = $1, updated_at = now() where id = $2', [CANCELLED, messageId]);
    await sqlCount(this.em, 'update emails set status = $1, updated_at = now() where message_id = $2 and status = any($3::text[])', [
      CANCELLED,
      messageId,
      textArray(UNTRIED_EMAIL),
    ]);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScheduleListArgs } from './message.inputs.js';
import type { MessageSchedule, MessageScheduleDetail } from './message.type.js';
import { asDate, Where } from './sql.js';
import { domainScope } from '../../db/scoped.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/**
 * A schedule is a message sent with `send_at`. Its status folds the message's: still waiting
 * (scheduled, or paused by its domain) is `scheduled`; handed to delivery is `sent`; a send that
 * could not go out is `error`. A cancelled schedule is gone: not listed, 404 on read.
 */
const STATUS_SQL = `case when m.status in ('scheduled', 'paused') then 'scheduled' when m.status = 'error' then 'error' else 'sent' end`;
const MESSAGE_STATUSES: Record<string, string[]> = {
  scheduled: ['scheduled', 'paused'],
  sent: ['queued', 'sending', 'sent'],
  error: ['error'],
};
const CANCELLABLE = MESSAGE_STATUSES.scheduled;

interface ScheduleRow {
  message_id: string;
  subject: string;
  send_at: unknown;
  status: string;
  status_message: string | null;
  created_at: unknown;
}

const COLUMNS = `m.id as message_id, m.subject, m.send_at, ${STATUS_SQL} as status, m.status_message, m.created_at`;

function toSchedule(r: ScheduleRow): MessageSchedule {
  return {
    message_id: r.message_id,
    subject: r.subject,
    send_at: asDate(r.send_at),
    status: r.status,
    status_message: r.status_message,
    created_at: asDate(r.created_at),
  };
}

export class ScheduleService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: ScheduleListArgs): Promise<MessageSchedule[]> {
    const w = new Where().add('m.account_id = ?', auth.accountId).add('m.send_at is not null').add(`m.status <> 'cancelled'`);
    const domainId = await domainScope(this.em, auth, args.domain_id);
    if (domainId) w.add('m.domain_id = ?', domainId);
    if (args.status) w.add('m.status = any(?::text[])', `{${MESSAGE_STATUSES[args.status].join(',')}}`);
    const rows = await this.em.execute<ScheduleRow[]>(
      `select ${COLUMNS} from messages m where ${w.sql} order by m.created_at desc, m.id desc limit ? offset ?`,
      [...w.params, args.limit, offsetOf(args)],
    );
    return rows.map(toSchedule);
  }

  async get(auth: Actor, messageId: string): Promise<MessageScheduleDetail> {
    const [row] = await this.em.execute<(ScheduleRow & { d_id: string; d_name: string; d_created_at: unknown; d_updated_at: unknown })[]>(
      `select ${COLUMNS}, d.id as d_id, d.name as d_name, d.created_at as d_created_at, d.updated_at as d_updated_at
         from messages m join domains d on d.id = m.domain_id
        where m.id = ? and m.account_id = ? and m.send_at is not null and m.status <> 'cancelled'`,
      [messageId, auth.accountId],
    );
    if (!row) throw errors.notFound();
    assertDomainAccess(auth, row.d_id);
    return {
      ...toSchedule(row),
      domain: { id: row.d_id, name: row.d_name, created_at: asDate(row.d_created_at), updated_at: asDate(row.d_updated_at) },
      message: { id: row.message_id, created_at: asDate(row.created_at) },
    };
  }

  /**
   * Cancels a schedule that has not gone out. The message row is locked first, so a delivery
   * starting at the same moment either sees `cancelled` or has already moved the message on
   * (then this is a 422). Its waiting emails are cancelled with it; delivery skips both.
   */
  async cancel(auth: Actor, messageId: string): Promise<boolean> {
    return this.em.transactional(async (tx) => {
      const [row] = await tx.execute<{ domain_id: string; status: string }[]>(
        `select domain_id, status from messages
          where id = ? and account_id = ? and send_at is not null and status <> 'cancelled' for update`,
        [messageId, auth.accountId],
      );
      if (!row) throw errors.notFound();
      assertDomainAccess(auth, row.domain_id);
      if (!CANCELLABLE.includes(row.status)) {
        throw errors.invalid('message_id', 'Only a message that is still scheduled can be cancelled; this one has already been processed.');
      }
      await tx.execute(`update messages set status = 'cancelled', updated_at = now() where id = ?`, [messageId]);
      await tx.execute(
        `update emails set status = 'cancelled', updated_at = now() where message_id = ? and status in ('queued', 'scheduled', 'paused')`,
        [messageId],
      );
      return true;
    });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScheduleListArgs, ScheduleStatus } from './message.inputs.js';
import type { MessageSchedule, MessageScheduleDetail } from './message.type.js';
import { ScheduleRepository, type ScheduleRow } from './schedule.repository.js';
import { asDate } from '../../db/sql.js';
import { domainsScope } from '../../db/scoped.js';
import { HANDED_OVER_MESSAGE, isIn, WAITING_MESSAGE, type MessageStatus } from '../messages/message.status.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

/**
 * A schedule is a message sent with `send_at`. Its status folds the message's: still waiting
 * (scheduled, or paused by its domain) is `scheduled`; handed to delivery is `sent`; a send that
 * could not go out is `error`. A cancelled schedule is gone: not listed, 404 on read.
 */
const MESSAGE_STATUSES: Record<ScheduleStatus, readonly MessageStatus[]> = {
  scheduled: WAITING_MESSAGE,
  sent: HANDED_OVER_MESSAGE,
  error: ['error'],
};

function scheduleStatus(status: MessageStatus): ScheduleStatus {
  if (isIn(WAITING_MESSAGE, status)) return 'scheduled';
  return status === 'error' ? 'error' : 'sent';
}

function toSchedule(r: ScheduleRow): MessageSchedule {
  return {
    message_id: r.message_id,
    subject: r.subject,
    send_at: asDate(r.send_at),
    status: scheduleStatus(r.status),
    status_message: r.status_message,
    created_at: asDate(r.created_at),
  };
}

export class ScheduleService {
  private readonly repo: ScheduleRepository;

  constructor(private readonly em: EntityManager) {
    this.repo = new ScheduleRepository(em);
  }

  async list(auth: Actor, args: ScheduleListArgs): Promise<MessageSchedule[]> {
    const domainIds = await domainsScope(this.em, auth, args.domain_id);
    const statuses = args.status ? MESSAGE_STATUSES[args.status] : undefined;
    const rows = await this.repo.list({ accountId: auth.accountId, domainIds, statuses }, { limit: args.limit, offset: offsetOf(args) });
    return rows.map(toSchedule);
  }

  /** One page with the full pager's meta (GET /v1/message-schedules); the filters apply to `total` too. */
  async page(auth: Actor, args: ScheduleListArgs): Promise<Page<MessageSchedule>> {
    const domainIds = await domainsScope(this.em, auth, args.domain_id);
    const filter = { accountId: auth.accountId, domainIds, statuses: args.status ? MESSAGE_STATUSES[args.status] : undefined };
    const rows = await this.repo.list(filter, { limit: args.limit, offset: offsetOf(args) });
    const total = await this.repo.count(filter);
    return { rows: rows.map(toSchedule), meta: pageMeta(args, rows.length, total) };
  }

  async get(auth: Actor, messageId: string): Promise<MessageScheduleDetail> {
    const row = await this.repo.get(messageId, auth.accountId);
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
      const schedules = new ScheduleRepository(tx);
      const row = await schedules.lock(messageId, auth.accountId);
      if (!row) throw errors.notFound();
      assertDomainAccess(auth, row.domain_id);
      if (!isIn(WAITING_MESSAGE, row.status)) {
        throw errors.invalid('message_id', 'Only a message that is still scheduled can be cancelled; this one has already been processed.');
      }
      await schedules.cancel(messageId);
      return true;
    });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { toRecipient } from '../recipients/recipient.type.js';
import type { Recipient } from '../recipients/recipient.entity.js';
import { asDate, asDateOrNull, LIFECYCLE_RANK, TEXT_ARRAY, Where } from '../email-log/sql.js';
import { ownedDomainId } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import type { ActivityListArgs } from './activity.inputs.js';
import type { ActivityEntry, ActivityPage } from './activity.type.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors, label, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** Types a free account neither sees nor filters by (SPEC.md "Activity"). */
const PAID_TYPES = ['deferred', 'suppressed'];
const PAID_ONLY = 'The selected event is available on the Starter plan or above.';

const SELECT = `select a.id, a.domain_id, a.type, a.suppression_reason, a.created_at, a.updated_at,
    e.id as e_id, m.from_email, e.subject, coalesce(m.text, t.text) as text, coalesce(m.html, t.html) as html,
    e.status, e.tags, e.created_at as e_created_at, e.updated_at as e_updated_at,
    r.id as r_id, r.email as r_email, r.created_at as r_created_at, r.updated_at as r_updated_at, r.deleted_at as r_deleted_at
  from activities a
  join emails e on e.id = a.email_id
  join messages m on m.id = e.message_id
  join recipients r on r.id = e.recipient_id
  left join templates t on t.id = m.template_id and t.account_id = m.account_id`;

type Row = Record<string, unknown> & { id: string; domain_id: string; type: string; suppression_reason: string | null };

function toEntry(r: Row): ActivityEntry {
  const tags = r.tags as string[] | null;
  return {
    id: r.id,
    created_at: asDate(r.created_at),
    updated_at: asDate(r.updated_at),
    type: r.type,
    suppression_reason: r.type === 'suppressed' ? r.suppression_reason : null,
    email: {
      id: r.e_id as string,
      from: r.from_email as string,
      subject: r.subject as string,
      text: (r.text as string | null) ?? null,
      html: (r.html as string | null) ?? null,
      status: r.status as string,
      tags: tags?.length ? tags : null,
      created_at: asDate(r.e_created_at),
      updated_at: asDate(r.e_updated_at),
      recipient: toRecipient({
        id: r.r_id,
        email: r.r_email,
        created_at: asDate(r.r_created_at),
        updated_at: asDate(r.r_updated_at),
        deleted_at: asDateOrNull(r.r_deleted_at),
      } as Recipient),
    },
  };
}

/** The activity log, read by domain and time range through the (domain_id, created_at) index. */
export class ActivityService {
  constructor(private readonly em: EntityManager) {}

  private async isFree(auth: Actor): Promise<boolean> {
    const [row] = await this.em.execute<{ plan: string }[]>('select plan from accounts where id = ?', [auth.accountId]);
    return !row || row.plan === 'free';
  }

  async list(auth: Actor, args: ActivityListArgs): Promise<ActivityPage> {
    const bag = new FieldErrorBag();
    const from = parseMoment(args.date_from);
    const to = parseMoment(args.date_to);
    const format = (f: string) => `The ${label(f)} must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.`;
    if (!from) bag.add('date_from', format('date_from'));
    if (!to) bag.add('date_to', format('date_to'));
    if (from && to && from.getTime() >= to.getTime()) {
      bag.add('date_from', 'The date from must be a date before date to.');
      bag.add('date_to', 'The date to must be a date after date from.');
    }
    const free = await this.isFree(auth);
    const events = [...new Set(args.event ?? [])];
    if (free) (args.event ?? []).forEach((e, i) => PAID_TYPES.includes(e) && bag.add(`event.${i}`, PAID_ONLY));
    bag.throwIfAny();
    const domainId = await ownedDomainId(this.em, auth, args.domain_id);

    // date_to is inclusive to the second it names.
    const w = new Where()
      .add('a.domain_id = ?', domainId)
      .add('a.account_id = ?', auth.accountId)
      .add('a.created_at >= ?', from!)
      .add('a.created_at < ?', new Date(to!.getTime() + 1000));
    if (events.length) w.add(`a.type = any(${TEXT_ARRAY})`, JSON.stringify(events));
    if (free) w.add(`a.type not in (${PAID_TYPES.map(() => '?').join(', ')})`, ...PAID_TYPES);
    const rows = await this.em.execute<Row[]>(
      `${SELECT} where ${w.sql} order by a.created_at desc, ${LIFECYCLE_RANK} desc, a.id desc limit ? offset ?`,
      [...w.params, args.limit, offsetOf(args)],
    );
    const first = rows.length ? offsetOf(args) + 1 : null;
    return {
      data: rows.map(toEntry),
      meta: { current_page: args.page, from: first, per_page: args.limit, to: first === null ? null : first + rows.length - 1 },
    };
  }

  /** The given activities of the caller's account, oldest first, as the list would show them (plan rules included). */
  async byIds(auth: Actor, ids: string[]): Promise<ActivityEntry[]> {
    if (!ids.length) return [];
    const w = new Where().add(`a.id = any(${TEXT_ARRAY})`, JSON.stringify(ids)).add('a.account_id = ?', auth.accountId);
    if (auth.domainId) w.add('a.domain_id = ?', auth.domainId);
    if (await this.isFree(auth)) w.add(`a.type not in (${PAID_TYPES.map(() => '?').join(', ')})`, ...PAID_TYPES);
    const rows = await this.em.execute<Row[]>(`${SELECT} where ${w.sql} order by a.created_at, ${LIFECYCLE_RANK}, a.id`, w.params);
    return rows.map(toEntry);
  }

  async get(auth: Actor, activityId: string): Promise<ActivityEntry> {
    const [row] = await this.em.execute<Row[]>(`${SELECT} where a.id = ? and a.account_id = ?`, [activityId, auth.accountId]);
    if (!row || (PAID_TYPES.includes(row.type) && (await this.isFree(auth)))) throw errors.notFound();
    assertDomainAccess(auth, row.domain_id);
    return toEntry(row);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { visibleTo } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import { AuditRepository } from './audit.repository.js';
import { AuditEvent } from './audit-event.entity.js';
import type { AuditEventListArgs } from './audit-event.inputs.js';
import { type Actor, domainsOf } from '../../core/actor.js';
import { offsetOf, pageMeta } from '../../core/page.js';
import { FieldErrorBag } from '../../core/errors.js';

const notInstant = (f: string) => `The ${f.replace('_', ' ')} must be an ISO 8601 timestamp or a Unix timestamp.`;

/** A bound of the range; a bare `date_to` day reaches through its end, as people mean it. */
function bound(value: string | null | undefined, field: string, bag: FieldErrorBag, endOfDay: boolean): Date | null {
  if (value == null || value === '') return null;
  const moment = parseMoment(value, { day: true, iso: true });
  if (!moment) {
    bag.add(field, notInstant(field));
    return null;
  }
  return endOfDay && moment.day ? new Date(moment.at.getTime() + 86_400_000 - 1) : moment.at;
}

export class AuditEventService {
  constructor(private readonly em: EntityManager) {}

  /**
   * The account's events, newest first. A domain-limited token reads only events about subjects
   * of its own domain (its domain's tokens, SMTP users and email webhooks, and users limited to
   * just that domain), the subjects it can itself change.
   */
  async list(auth: Actor, args: AuditEventListArgs) {
    const bag = new FieldErrorBag();
    const from = bound(args.date_from, 'date_from', bag, false);
    const to = bound(args.date_to, 'date_to', bag, true);
    if (from && to && to.getTime() < from.getTime()) bag.add('date_to', 'The date to must be a date after or equal to date from.');
    bag.throwIfAny();

    const where: Record<string, unknown> = visibleTo(auth, 'domain_id');
    if (args.action) where.action = args.action;
    if (args.subject_id) where.subject_id = args.subject_id;
    if (from || to) where.created_at = { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
    const [rows, total] = await this.em.findAndCount(AuditEvent, where, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total), unseenActors: await this.unseenActors(auth, rows) };
  }

  /**
   * The tokens acting in these events that the caller cannot see (another domain's, or the
   * account-wide ones, for a domain-limited token): their id and name are not shown to it.
   */
  private async unseenActors(auth: Actor, rows: AuditEvent[]): Promise<ReadonlySet<string>> {
    const own = domainsOf(auth);
    if (!own) return new Set();
    const ids = [...new Set(rows.filter((r) => r.actor_type === 'token' && r.actor_id).map((r) => r.actor_id!))];
    if (!ids.length) return new Set();
    const visible = await new AuditRepository(this.em).visibleTokenIds(auth.accountId, own, ids);
    return new Set(ids.filter((id) => !visible.has(id)));
  }
}

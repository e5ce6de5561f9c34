import type { EntityManager } from '@mikro-orm/postgresql';
import { AnalyticsRepository, type NameColumn, type StatsFilter, type StatsUnit } from './analytics.repository.js';
import { domainsScope } from '../../db/scoped.js';
import type { AnalyticsArgs, AnalyticsDateArgs } from './analytics.inputs.js';
import type { AnalyticsByDate, AnalyticsByName } from './analytics.type.js';
import { type Actor } from '../../core/actor.js';
import { msg, FieldErrorBag } from '../../core/errors.js';

const UNIT: Record<string, StatsUnit> = { days: 'day', weeks: 'week', months: 'month', years: 'year' };
const RETENTION_MONTHS = 6;
/** Zero-filling makes the answer as long as the range: a year of days at most. */
const MAX_RANGE_SECONDS = 366 * 86400;

/** The first day analytics still hold: the start of the same UTC day, six months ago. */
export function retentionStart(now = new Date()): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCMonth(d.getUTCMonth() - RETENTION_MONTHS);
  return d;
}

const dayOf = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

/** Per-name breakdowns read opens: where and in what the email was read. */
const NAME_COLUMN = { country: 'country', ua_name: 'ua_name', ua_type: 'ua_type' } as const satisfies Record<string, NameColumn>;
export type NameBreakdown = keyof typeof NAME_COLUMN;

/**
 * Analytics read only the daily rollup (activity_stats), never the activity rows: each answer
 * costs the same whatever the sending volume. A rollup row holds the message's whole tag set,
 * so a tag filter counts an email once however many of its tags match.
 */
export class AnalyticsService {
  constructor(private readonly em: EntityManager) {}

  private async scope(auth: Actor, args: AnalyticsArgs, now = new Date()): Promise<StatsFilter> {
    const bag = new FieldErrorBag();
    if (args.date_from >= args.date_to) {
      bag.add('date_from', 'The date from must be a date before date to.');
      bag.add('date_to', 'The date to must be a date after date from.');
    } else if (args.date_to - args.date_from > MAX_RANGE_SECONDS) {
      bag.add('date_to', 'The date to may not be more than 366 days after date from.');
    }
    if (args.date_from * 1000 < retentionStart(now).getTime()) {
      bag.add('date_from', `The date from must be within the last ${RETENTION_MONTHS} months (analytics are kept that long).`);
    }
    bag.throwIfAny();
    return {
      accountId: auth.accountId,
      fromDay: dayOf(args.date_from),
      toDay: dayOf(args.date_to),
      // The domain asked for, else the caller's own (one or several), else the whole account.
      domainIds: await domainsScope(this.em, auth, args.domain_id),
      tags: args.tags,
    };
  }

  async byDate(auth: Actor, args: AnalyticsDateArgs): Promise<AnalyticsByDate> {
    // GraphQL lets an empty list through a non-null list argument; /v1 answers it before here.
    if (!args.event.length) new FieldErrorBag().add('event', msg.required('event')).throwIfAny();
    const repo = new AnalyticsRepository(this.em);
    const filter = await this.scope(auth, args);
    // After the scope: another account's domain is a 404 whatever else is wrong.
    const timeZone = args.timezone ?? 'UTC';
    if (!(await repo.isTimeZone(timeZone))) new FieldErrorBag().add('timezone', msg.in('timezone')).throwIfAny();
    // A local day reaches at most a day beyond the UTC days of the range's ends.
    filter.fromDay = dayOf(args.date_from - 86400);
    filter.toDay = dayOf(args.date_to + 86400);
    const events = [...new Set(args.event)];
    const range = { from: args.date_from, to: args.date_to, timeZone };
    const rows = await repo.byUnit(filter, events, UNIT[args.group_by], range);
    const byStart = new Map<number, Record<string, number>>();
    for (const r of rows) {
      const date = Number(r.ts);
      let item = byStart.get(date);
      if (!item) byStart.set(date, (item = { date, ...Object.fromEntries(events.map((e) => [e, 0])) }));
      if (r.type) item[r.type] = Number(r.n);
    }
    return { date_from: args.date_from, date_to: args.date_to, group_by: args.group_by, stats: [...byStart.values()] };
  }

  async byName(auth: Actor, args: AnalyticsArgs, breakdown: NameBreakdown): Promise<AnalyticsByName> {
    const filter = await this.scope(auth, args);
    const rows = await new AnalyticsRepository(this.em).opensBy(filter, NAME_COLUMN[breakdown]);
    return { date_from: args.date_from, date_to: args.date_to, stats: rows.map((r) => ({ name: r.name, count: Number(r.count) })) };
  }
}

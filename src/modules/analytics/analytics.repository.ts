import type { EntityManager } from '@mikro-orm/postgresql';
import { textArray, Where } from '../../db/sql.js';
import type { ActivityType } from '../activity/activity.entity.js';

/** The daily rollup rows an answer counts: one account, a range of UTC days, a domain, any of some tags. */
export interface StatsFilter {
  accountId: string;
  /** Inclusive, YYYY-MM-DD. */
  fromDay: string;
  toDay: string;
  domainId?: string | null;
  tags?: string[] | null;
}

export type StatsUnit = 'day' | 'week' | 'month' | 'year';
/** The rollup columns that name where and in what an email was read. */
export type NameColumn = 'country' | 'ua_name' | 'ua_type';

/** Per-name breakdowns count opens. */
const OPENED = 'opened' satisfies ActivityType;

function where(f: StatsFilter): Where {
  const w = new Where().add('account_id = ?', f.accountId).add('day >= ?::date', f.fromDay).add('day <= ?::date', f.toDay);
  if (f.domainId) w.add('domain_id = ?', f.domainId);
  // A rollup row holds the message's whole tag set: `&&` counts an email once however many match.
  if (f.tags?.length) w.add('tags && ?::text[]', textArray(f.tags));
  return w;
}

/** Analytics read only the daily rollup (activity_stats), never the activity rows. */
export class AnalyticsRepository {
  constructor(private readonly em: EntityManager) {}

  /** Sums by type for every unit of the range (units with nothing have one row with type null). */
  byUnit(filter: StatsFilter, types: string[], unit: StatsUnit) {
    const w = where(filter).add('type = any(?::text[])', textArray(types));
    return this.em.execute<{ ts: string | number; type: string | null; n: string | number | null }[]>(
      `with agg as (
         select date_trunc('${unit}', day::timestamp) as start, type, sum(count) as n
           from activity_stats where ${w.sql} group by 1, 2
       )
       select extract(epoch from u.start)::bigint as ts, agg.type, agg.n
         from generate_series(date_trunc('${unit}', ?::date::timestamp), ?::date::timestamp, interval '1 ${unit}') as u(start)
         left join agg on agg.start = u.start
        order by u.start`,
      [...w.params, filter.fromDay, filter.toDay],
    );
  }

  /** Opens by one name column, most first. */
  opensBy(filter: StatsFilter, column: NameColumn) {
    const w = where(filter).add('type = ?', OPENED).add(`${column} <> ''`);
    return this.em.execute<{ name: string; count: string | number }[]>(
      `select ${column} as name, sum(count) as count from activity_stats where ${w.sql}
        group by 1 order by 2 desc, 1`,
      w.params,
    );
  }
}

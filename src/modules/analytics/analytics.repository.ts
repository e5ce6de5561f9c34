import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows, textArray, Where } from '../../db/sql.js';
import type { ActivityType } from '../activity/activity.entity.js';

/** The daily rollup rows an answer counts: one account, a range of UTC days, some domains (null: all), any of some tags. */
export interface StatsFilter {
  accountId: string;
  /** Inclusive, YYYY-MM-DD. */
  fromDay: string;
  toDay: string;
  domainIds?: readonly string[] | null;
  tags?: string[] | null;
}

export type StatsUnit = 'day' | 'week' | 'month' | 'year';
/** The rollup columns that name where and in what an email was read. */
export type NameColumn = 'country' | 'ua_name' | 'ua_type';

/** Per-name breakdowns count opens. */
const OPENED = 'opened' satisfies ActivityType;

/** A range counted by the days of a time zone: from the local day of `from` to that of `to`, whole. */
export interface ZonedRange {
  from: number;
  to: number;
  timeZone: string;
}

/** The names PostgreSQL's `at time zone` knows: read once per process (the view reads files). */
let zoneNames: Promise<Set<string>> | undefined;

function where(f: StatsFilter): Where {
  const w = new Where().add('account_id = ?', f.accountId).add('day >= ?::date', f.fromDay).add('day <= ?::date', f.toDay);
  if (f.domainIds) w.add('domain_id = any(?::text[])', textArray(f.domainIds));
  // A rollup row holds the message's whole tag set: `&&` counts an email once however many match.
  if (f.tags?.length) w.add('tags && ?::text[]', textArray(f.tags));
  return w;
}

/** Analytics read only the daily rollup (activity_stats), never the activity rows. */
export class AnalyticsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Sums by type for every unit of the range in its time zone (units with nothing have one row
   * with type null). A rollup row is one UTC hour, counted in the local unit its start falls in;
   * the filter's days only narrow the index scan, the zone's day bounds decide.
   */
  byUnit(filter: StatsFilter, types: string[], unit: StatsUnit, range: ZonedRange) {
    const w = where(filter).add('type = any(?::text[])', textArray(types));
    const hourStart = `((day + hour * interval '1 hour') at time zone 'UTC')`;
    // The zone is one text parameter, used wherever the statement converts a time.
    const tz = `${w.param(range.timeZone)}::text`;
    const from = w.param(range.from);
    const to = w.param(range.to);
    return sqlRows<{ ts: string | number; type: string | null; n: string | number | null }>(
      this.em,
      `with local as (
         select date_trunc('day', to_timestamp(${from}::double precision) at time zone ${tz}) as first_day,
                date_trunc('day', to_timestamp(${to}::double precision) at time zone ${tz}) as last_day
       ),
       rng as (
         select first_day, last_day, first_day at time zone ${tz} as lo, (last_day + interval '1 day') at time zone ${tz} as hi from local
       ),
       agg as (
         select date_trunc('${unit}', ${hourStart} at time zone ${tz}) as start, type, sum(count) as n
           from activity_stats, rng
          where ${w.sql} and ${hourStart} >= rng.lo and ${hourStart} < rng.hi
          group by 1, 2
       )
       select extract(epoch from u.start at time zone ${tz})::bigint as ts, agg.type, agg.n
         from rng cross join generate_series(date_trunc('${unit}', rng.first_day), rng.last_day, interval '1 ${unit}') as u(start)
         left join agg on agg.start = u.start
        order by u.start`,
      w.params,
    );
  }

  /** Whether `at time zone` knows the name (an IANA zone such as America/New_York). */
  async isTimeZone(name: string): Promise<boolean> {
    zoneNames ??= sqlRows<{ name: string }>(this.em, 'select name from pg_timezone_names')
      .then((rows) => new Set(rows.map((r) => r.name)))
      .catch((err: unknown) => {
        zoneNames = undefined;
        throw err;
      });
    return (await zoneNames).has(name);
  }

  /** Opens by one name column, most first. */
  opensBy(filter: StatsFilter, column: NameColumn) {
    const w = where(filter).add('type = ?', OPENED).add(`${column} <> ''`);
    return sqlRows<{ name: string; count: string | number }>(
      this.em,
      `select ${column} as name, sum(count) as count from activity_stats where ${w.sql}
        group by 1 order by 2 desc, 1`,
      w.params,
    );
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows } from '../../db/sql.js';

/**
 * The slow-down level still in force at `clock_timestamp()`: one level is forgiven for every
 * `$forgive` seconds since the last slow-down answer.
 */
const level = (forgive: string) =>
  `greatest(0, s.slow_level - floor(extract(epoch from clock_timestamp() - coalesce(s.slowed_at, clock_timestamp())) / ${forgive}))::int`;

/**
 * A permit for one message (a GCRA per rate with no burst): the slot is the later of now and each
 * rate's next arrival time; a slot within $5 seconds is taken (each rate's next arrival moves one
 * spacing past it, the spacing doubled per slow-down level), a later one is only answered. A
 * suspended site answers its suspension. The row is locked for the statement, so every worker's
 * permits come from one sequence.
 */
const ADMIT = `with v as (
    select s.site, s.source, greatest(clock_timestamp(), s.minute_at, s.hour_at) as slot, s.suspended_until,
           power(2, ${level('$6::float8')})::float8 as slowed
      from delivery_sites s where s.site = $1 and s.source = $2 for update
  ),
  taken as (
    update delivery_sites s
       set minute_at = case when $3::float8 is null then s.minute_at else v.slot + make_interval(secs => $3::float8 * v.slowed) end,
           hour_at = case when $4::float8 is null then s.hour_at else v.slot + make_interval(secs => $4::float8 * v.slowed) end
      from v
     where s.site = v.site and s.source = v.source
       and coalesce(v.suspended_until, '-infinity') <= clock_timestamp()
       and v.slot <= clock_timestamp() + make_interval(secs => $5::float8)
    returning 1
  )
  select v.slot, v.suspended_until > clock_timestamp() as suspended, v.suspended_until, exists (select 1 from taken) as admitted,
         greatest(0, extract(epoch from v.slot - clock_timestamp()))::float8 as wait_s
    from v`;

/**
 * A "slow down" answer: the site's level goes up one (at most $4) and it is suspended for $3
 * seconds doubled per level below the new one. Answers that arrive while it is suspended are
 * the same slow-down seen by other connections, and change nothing.
 */
const SLOW_DOWN = `insert into delivery_sites as s (site, source, slow_level, slowed_at, suspended_until)
  values ($1, $2, 1, clock_timestamp(), clock_timestamp() + make_interval(secs => $3::float8))
  on conflict (site, source) do update
     set slow_level = least($4::int, ${level('$5::float8')} + 1),
         slowed_at = clock_timestamp(),
         suspended_until = clock_timestamp() + make_interval(secs => $3::float8 * power(2, least($4::int, ${level('$5::float8')} + 1) - 1))
   where coalesce(s.suspended_until, '-infinity') <= clock_timestamp()
  returning suspended_until, slow_level`;

/** The permit ADMIT answers: taken (go at `waitMs`), or not before `until`. */
export type Permit = { admitted: true; waitMs: number } | { admitted: false; until: Date; suspended: boolean };

export interface Spacing {
  /** Seconds between two messages under each rate; null for a rate the site does not have. */
  minute: number | null;
  hour: number | null;
  /** How far ahead a permit is taken and waited for in the process, rather than the message put off. */
  aheadSeconds: number;
  /** DELIVERY_SLOWDOWN_SECONDS: a slow-down level is forgiven ten times this after the last one. */
  slowdownSeconds: number;
}

/** How many slow-downs in a row at most: the rates then run at a 32nd. */
export const MAX_SLOW_LEVEL = 6;

/** The shared pace of the destination sites (delivery-site.entity.ts). */
export class DeliverySiteRepository {
  constructor(private readonly em: EntityManager) {}

  /** A permit for one message to `site` from `source`, under its rates and any suspension. */
  async admit(site: string, source: string, spacing: Spacing): Promise<Permit> {
    const values = [site, source, spacing.minute, spacing.hour, spacing.aheadSeconds, spacing.slowdownSeconds * 10];
    let row = await this.admitRow(values);
    if (!row) {
      await sqlRows(this.em, 'insert into delivery_sites (site, source) values ($1, $2) on conflict do nothing', [site, source]);
      row = await this.admitRow(values);
    }
    if (!row) throw new Error(`delivery site ${site} has no row`);
    if (row.admitted) return { admitted: true, waitMs: Math.ceil(row.wait_s * 1000) };
    if (row.suspended) return { admitted: false, until: new Date(row.suspended_until!), suspended: true };
    return { admitted: false, until: new Date(row.slot), suspended: false };
  }

  private admitRow(values: unknown[]) {
    return sqlRow<{ slot: string; suspended: boolean | null; suspended_until: string | null; admitted: boolean; wait_s: number }>(this.em, ADMIT, values);
  }

  /** A "slow down" answer from `site`: answers until when the site is suspended, or null when it already was. */
  async slowDown(site: string, source: string, slowdownSeconds: number): Promise<Date | null> {
    const row = await sqlRow<{ suspended_until: string }>(this.em, SLOW_DOWN, [site, source, slowdownSeconds, MAX_SLOW_LEVEL, slowdownSeconds * 10]);
    return row ? new Date(row.suspended_until) : null;
  }

  /**
   * Deletes the rows of sites idle for a day: no permit ahead, no suspension, every slow-down
   * forgiven. A site met again starts afresh; without this, every site that ever answered 421
   * would keep a row.
   */
  async forgetIdle(forgiveSeconds: number): Promise<void> {
    await sqlRows(
      this.em,
      `delete from delivery_sites
        where greatest(coalesce(minute_at, '-infinity'), coalesce(hour_at, '-infinity'), coalesce(suspended_until, '-infinity'),
                       coalesce(slowed_at + make_interval(secs => $1::float8 * slow_level), '-infinity')) < now() - interval '1 day'`,
      [forgiveSeconds],
    );
  }

  /** The sites suspended now, with when each suspension ends: key `site|source`. */
  async suspended(): Promise<Map<string, Date>> {
    const rows = await sqlRows<{ site: string; source: string; suspended_until: string }>(
      this.em,
      'select site, source, suspended_until from delivery_sites where suspended_until > clock_timestamp()',
    );
    return new Map(rows.map((r) => [`${r.site}|${r.source}`, new Date(r.suspended_until)]));
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../../config/plans.js';
import { sqlRow, sqlRows } from '../../db/sql.js';

const TODAY = `(now() at time zone 'utc')::date`;

/** The account's window has ended (or never started): this request starts a new one. */
const NEW_WINDOW = `(c.rate_window_end is null or c.rate_window_end <= now())`;
/** The account's window count once this request is in. */
const ACCOUNT_HITS = `case when ${NEW_WINDOW} then excluded.rate_hits else c.rate_hits + excluded.rate_hits end`;

/**
 * Counts one request (worth `n` hits: a GraphQL document asking for n root fields is n requests)
 * against its token's rate window, its account's rate window and, unless a rate limit refused it
 * or the caller says not to, its account's day. One statement, so one round trip, and the row
 * locks of the upserts make concurrent requests count one after another. A window that has ended
 * is restarted in place; so is the day. The account's window counts every token: a new token is
 * no new room. Without a token (an SMTP user's message), the token's part is skipped.
 *
 * The limits are bound as bigint: a bound parameter takes the type of what it is compared with
 * (int), and a request without a token is limited by Number.MAX_SAFE_INTEGER (quota.service.ts).
 */
const METER_SQL = `
with r as (
  insert into api_rate_counters as c (token_id, window_end, hits)
  select $1::varchar, now() + make_interval(secs => $2), $3::int where $1::varchar is not null
  on conflict (token_id) do update set
    hits = case when c.window_end <= now() then excluded.hits else c.hits + excluded.hits end,
    window_end = case when c.window_end <= now() then excluded.window_end else c.window_end end
  returning hits, window_end
), a as (
  insert into api_quota_counters as c (account_id, day, hits, rate_window_end, rate_hits)
  select $4, ${TODAY}, case when $3::int <= $5::bigint and $6::boolean then $3::int else 0 end, now() + make_interval(secs => $2), $3::int
  where coalesce((select hits from r), 0) <= $7::bigint
  on conflict (account_id) do update set
    hits = case when c.day = excluded.day then c.hits else 0 end
      + case when ${ACCOUNT_HITS} <= $5::bigint and $6::boolean then excluded.rate_hits else 0 end,
    day = excluded.day,
    rate_hits = ${ACCOUNT_HITS},
    rate_window_end = case when ${NEW_WINDOW} then excluded.rate_window_end else c.rate_window_end end
  returning hits, rate_hits, rate_window_end
), cur as (
  select hits, rate_hits, rate_window_end from api_quota_counters where account_id = $4
)
select
  (select hits from r) as rate_hits,
  extract(epoch from coalesce((select window_end from r), now()))::float8 as rate_reset,
  coalesce((select rate_hits from a), (select rate_hits from cur where rate_window_end > now()), 0) as account_hits,
  extract(epoch from coalesce((select rate_window_end from a), (select rate_window_end from cur), now()))::float8 as account_reset,
  extract(epoch from now())::float8 as now,
  coalesce((select hits from a), (select hits from api_quota_counters where account_id = $4 and day = ${TODAY}), 0) as quota_hits`;

const STATUS_SQL = `
select coalesce((select hits from api_quota_counters where account_id = $1 and day = ${TODAY}), 0) as hits,
  extract(epoch from now())::float8 as now`;

/** Two window ends read back as epoch seconds are the same window (float8 keeps well under a millisecond). */
const SAME_WINDOW = (col: string) => `abs(extract(epoch from ${col}) - x.win) < 0.001`;

/**
 * Writes the hits processes counted in memory (modules/quota/meter.ts), all keys in one statement,
 * each only into the window or day it was counted in: hits of a window another process has
 * restarted since are dropped with it. Returns each row as it now stands (its token rows, then its
 * account rows, ids sorted so that concurrent flushes lock rows in one order) and the clock.
 */
const FLUSH_SQL = `
with t as (
  update api_rate_counters c set hits = c.hits + x.hits
  from jsonb_to_recordset($1::jsonb) as x(id varchar, hits int, win float8)
  where c.token_id = x.id and ${SAME_WINDOW('c.window_end')}
  returning c.token_id as id, c.hits, extract(epoch from c.window_end)::float8 as win
), a as (
  update api_quota_counters c set
    rate_hits = c.rate_hits + case when ${SAME_WINDOW('c.rate_window_end')} then x.rate else 0 end,
    hits = c.hits + case when c.day = x.day then x.quota else 0 end
  from jsonb_to_recordset($2::jsonb) as x(id varchar, rate int, win float8, quota int, day date)
  where c.account_id = x.id and (${SAME_WINDOW('c.rate_window_end')} or c.day = x.day)
  returning c.account_id as id, c.rate_hits, extract(epoch from c.rate_window_end)::float8 as win, c.hits as quota, c.day::text as day
)
select 't' as kind, id, hits, win, null::int as quota, null::text as day from t
union all select 'a', id, rate_hits, win, quota, day from a
union all select 'now', null, null, extract(epoch from now())::float8, null, null`;

/** A token's hits counted in memory, with the window they belong to (epoch seconds, as METER_SQL read it). */
export interface FlushToken {
  id: string;
  hits: number;
  win: number;
}

/** An account's hits counted in memory: in its rate window `win`, and on its UTC day `day` (YYYY-MM-DD). */
export interface FlushAccount {
  id: string;
  rate: number;
  win: number;
  quota: number;
  day: string;
}

/** One row after a flush: a token's window, an account's window and day, or the clock (`now`). */
export interface FlushRow {
  kind: 't' | 'a' | 'now';
  id: string | null;
  hits: number | null;
  win: number;
  quota: number | null;
  day: string | null;
}

/** The three counts after one metered request, with the database's clock (epoch seconds). */
export interface MeterRow {
  rate_hits: number | null;
  rate_reset: number;
  account_hits: number;
  account_reset: number;
  now: number;
  quota_hits: number;
}

export interface MeterInput {
  accountId: string;
  /** Null for an SMTP user's message: only the account's counters move. */
  tokenId: string | null;
  hits: number;
  countQuota: boolean;
  windowSeconds: number;
  tokenLimit: number;
  accountLimit: number;
}

/** The API counters' SQL: each call is one statement, one round trip. */
export class QuotaRepository {
  constructor(private readonly em: EntityManager) {}

  async meter(m: MeterInput): Promise<MeterRow> {
    const row = await sqlRow<MeterRow>(this.em, { name: 'quota.meter', text: METER_SQL }, [
      m.tokenId, m.windowSeconds, m.hits, m.accountId, m.accountLimit, m.countQuota, m.tokenLimit,
    ]);
    return row!;
  }

  /** Adds counted hits to their windows and days; one statement for every key. */
  flush(tokens: FlushToken[], accounts: FlushAccount[]): Promise<FlushRow[]> {
    // As JSON text: one parameter per list whatever its length.
    return sqlRows<FlushRow>(this.em, FLUSH_SQL, [JSON.stringify(tokens), JSON.stringify(accounts)]);
  }

  /** Adds `n` to the account's day if the total stays within `limit`; false (nothing added) otherwise. */
  async chargeDay(accountId: string, n: number, limit: number): Promise<boolean> {
    const rows = await sqlRows<{ hits: number }>(
      this.em,
      `insert into api_quota_counters as c (account_id, day, hits) values ($1, ${TODAY}, $2)
       on conflict (account_id) do update set
         hits = case when c.day = excluded.day then c.hits + excluded.hits else excluded.hits end,
         day = excluded.day
       where (case when c.day = excluded.day then c.hits else 0 end) + excluded.hits <= $3::bigint
       returning hits`,
      [accountId, n, limit],
    );
    return rows.length > 0;
  }

  /** The account's plan as it is now (null: no such account). */
  async plan(accountId: string): Promise<Plan | null> {
    const row = await sqlRow<{ plan: Plan }>(this.em, 'select plan from accounts where id = $1', [accountId]);
    return row?.plan ?? null;
  }

  /** The account's requests today, and the database's clock (epoch seconds). */
  async status(accountId: string): Promise<{ hits: number; now: number }> {
    return (await sqlRow<{ hits: number; now: number }>(this.em, STATUS_SQL, [accountId]))!;
  }
}

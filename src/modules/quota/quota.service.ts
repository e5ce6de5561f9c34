import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import { rateLimitsOf, type Plan } from '../accounts/plans.js';
import { type Actor } from '../../core/actor.js';

/** The counters after one request, with the database's clock (the same for every process). */
export interface Usage {
  rate: { limit: number; hits: number; resetsAt: Date };
  /** The account's rate window: all its tokens (and SMTP users) together. */
  accountRate: { limit: number; hits: number; resetsAt: Date };
  quota: { limit: number; hits: number; resetsAt: Date };
  now: Date;
}

export interface QuotaStatus {
  quota: number;
  remaining: number;
  reset: Date;
}

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
 */
const METER_SQL = `
with r as (
  insert into api_rate_counters as c (token_id, window_end, hits)
  select ?::varchar, now() + make_interval(secs => ?), ?::int where ?::varchar is not null
  on conflict (token_id) do update set
    hits = case when c.window_end <= now() then excluded.hits else c.hits + excluded.hits end,
    window_end = case when c.window_end <= now() then excluded.window_end else c.window_end end
  returning hits, window_end
), a as (
  insert into api_quota_counters as c (account_id, day, hits, rate_window_end, rate_hits)
  select ?, ${TODAY}, case when ?::int <= ? and ?::boolean then ?::int else 0 end, now() + make_interval(secs => ?), ?::int
  where coalesce((select hits from r), 0) <= ?
  on conflict (account_id) do update set
    hits = case when c.day = excluded.day then c.hits else 0 end
      + case when ${ACCOUNT_HITS} <= ? and ?::boolean then excluded.rate_hits else 0 end,
    day = excluded.day,
    rate_hits = ${ACCOUNT_HITS},
    rate_window_end = case when ${NEW_WINDOW} then excluded.rate_window_end else c.rate_window_end end
  returning hits, rate_hits, rate_window_end
), cur as (
  select hits, rate_hits, rate_window_end from api_quota_counters where account_id = ?
)
select
  (select hits from r) as rate_hits,
  extract(epoch from coalesce((select window_end from r), now()))::float8 as rate_reset,
  coalesce((select rate_hits from a), (select rate_hits from cur where rate_window_end > now()), 0) as account_hits,
  extract(epoch from coalesce((select rate_window_end from a), (select rate_window_end from cur), now()))::float8 as account_reset,
  extract(epoch from now())::float8 as now,
  coalesce((select hits from a), (select hits from api_quota_counters where account_id = ? and day = ${TODAY}), 0) as quota_hits`;

const STATUS_SQL = `
select coalesce((select hits from api_quota_counters where account_id = ? and day = ${TODAY}), 0) as hits,
  extract(epoch from now())::float8 as now`;

/** The next UTC midnight after `now`: when the daily quota starts again. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export class QuotaService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
  ) {}

  /** One API request of a token, worth `hits` (root fields asked for). */
  meter(auth: Actor, opts: { countQuota: boolean; hits?: number }): Promise<Usage> {
    return this.count(auth.accountId, auth.tokenId, auth.plan ?? 'free', opts.hits ?? 1, opts.countQuota);
  }

  /** A message an SMTP user relays: one request of its account (no token of its own). */
  meterAccount(accountId: string, plan: Plan): Promise<Usage> {
    return this.count(accountId, null, plan, 1, true);
  }

  private async count(accountId: string, tokenId: string | null, plan: Plan, n: number, countQuota: boolean): Promise<Usage> {
    const { RATE_LIMIT_WINDOW_SECONDS, API_QUOTA_PER_DAY } = this.config;
    const limits = rateLimitsOf(this.config, plan);
    const ACCOUNT_RATE_LIMIT_REQUESTS = limits.account;
    const tokenLimit = tokenId ? limits.token : Number.MAX_SAFE_INTEGER;
    const row = await this.em
      .getConnection()
      .execute<{ rate_hits: number | null; rate_reset: number; account_hits: number; account_reset: number; now: number; quota_hits: number }>(
        METER_SQL,
        [
          tokenId, RATE_LIMIT_WINDOW_SECONDS, n, tokenId,
          accountId, n, ACCOUNT_RATE_LIMIT_REQUESTS, countQuota, n, RATE_LIMIT_WINDOW_SECONDS, n,
          tokenLimit,
          ACCOUNT_RATE_LIMIT_REQUESTS, countQuota,
          accountId, accountId,
        ],
        'get',
      );
    const now = new Date(row.now * 1000);
    return {
      rate: { limit: tokenLimit, hits: row.rate_hits ?? 0, resetsAt: new Date(row.rate_reset * 1000) },
      accountRate: { limit: ACCOUNT_RATE_LIMIT_REQUESTS, hits: row.account_hits, resetsAt: new Date(row.account_reset * 1000) },
      quota: { limit: API_QUOTA_PER_DAY, hits: row.quota_hits, resetsAt: nextUtcMidnight(now) },
      now,
    };
  }

  /**
   * Counts `n` units of work done without a request (inbound copies forwarded to email) against
   * the account's day, only if all of them fit: true when counted, false when the day has no room
   * (nothing is counted then). The row lock of the upsert orders concurrent callers.
   */
  async chargeDay(accountId: string, n: number): Promise<boolean> {
    const limit = this.config.API_QUOTA_PER_DAY;
    if (n > limit) return false;
    const rows = await this.em.execute<{ hits: number }[]>(
      `insert into api_quota_counters as c (account_id, day, hits) values (?, ${TODAY}, ?)
       on conflict (account_id) do update set
         hits = case when c.day = excluded.day then c.hits + excluded.hits else excluded.hits end,
         day = excluded.day
       where (case when c.day = excluded.day then c.hits else 0 end) + excluded.hits <= ?
       returning hits`,
      [accountId, n, limit],
    );
    return rows.length > 0;
  }

  /** The account's quota as it stands; reading it is not a request that counts. */
  async status(auth: Actor): Promise<QuotaStatus> {
    const row = await this.em
      .getConnection()
      .execute<{ hits: number; now: number }>(STATUS_SQL, [auth.accountId], 'get');
    const limit = this.config.API_QUOTA_PER_DAY;
    return { quota: limit, remaining: Math.max(0, limit - row.hits), reset: nextUtcMidnight(new Date(row.now * 1000)) };
  }
}

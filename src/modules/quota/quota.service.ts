import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import type { Auth } from '../../graphql/context.js';

/** Both counters after one request, with the database's clock (the same for every process). */
export interface Usage {
  rate: { limit: number; hits: number; resetsAt: Date };
  quota: { limit: number; hits: number; resetsAt: Date };
  now: Date;
}

export interface QuotaStatus {
  quota: number;
  remaining: number;
  reset: Date;
}

const TODAY = `(now() at time zone 'utc')::date`;

/**
 * Counts one request against its token's rate window and, unless the rate limit refused it or
 * the caller says not to, against its account's day. One statement, so one round trip, and the
 * row locks of the upserts make concurrent requests of one token count one after another.
 * A window that has ended is restarted in place (the token's row is reused); so is the day.
 */
const METER_SQL = `
with r as (
  insert into api_rate_counters as c (token_id, window_end, hits)
  values (?, now() + make_interval(secs => ?), 1)
  on conflict (token_id) do update set
    hits = case when c.window_end <= now() then 1 else c.hits + 1 end,
    window_end = case when c.window_end <= now() then excluded.window_end else c.window_end end
  returning hits, window_end
), q as (
  insert into api_quota_counters as c (account_id, day, hits)
  select ?, ${TODAY}, 1 from r where r.hits <= ? and ?::boolean
  on conflict (account_id) do update set
    hits = case when c.day = excluded.day then c.hits + 1 else 1 end,
    day = excluded.day
  returning hits
)
select r.hits as rate_hits,
  extract(epoch from r.window_end)::float8 as rate_reset,
  extract(epoch from now())::float8 as now,
  coalesce((select hits from q), (select hits from api_quota_counters where account_id = ? and day = ${TODAY}), 0) as quota_hits
from r`;

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

  async meter(auth: Auth, opts: { countQuota: boolean }): Promise<Usage> {
    const { RATE_LIMIT_REQUESTS, RATE_LIMIT_WINDOW_SECONDS, API_QUOTA_PER_DAY } = this.config;
    const row = await this.em
      .getConnection()
      .execute<{ rate_hits: number; rate_reset: number; now: number; quota_hits: number }>(
        METER_SQL,
        [auth.tokenId, RATE_LIMIT_WINDOW_SECONDS, auth.accountId, RATE_LIMIT_REQUESTS, opts.countQuota, auth.accountId],
        'get',
      );
    const now = new Date(row.now * 1000);
    return {
      rate: { limit: RATE_LIMIT_REQUESTS, hits: row.rate_hits, resetsAt: new Date(row.rate_reset * 1000) },
      quota: { limit: API_QUOTA_PER_DAY, hits: row.quota_hits, resetsAt: nextUtcMidnight(now) },
      now,
    };
  }

  /** The account's quota as it stands; reading it is not a request that counts. */
  async status(auth: Auth): Promise<QuotaStatus> {
    const row = await this.em
      .getConnection()
      .execute<{ hits: number; now: number }>(STATUS_SQL, [auth.accountId], 'get');
    const limit = this.config.API_QUOTA_PER_DAY;
    return { quota: limit, remaining: Math.max(0, limit - row.hits), reset: nextUtcMidnight(new Date(row.now * 1000)) };
  }
}

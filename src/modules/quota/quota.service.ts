import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import { rateLimitsOf, type Plan } from '../../config/plans.js';
import { type Actor } from '../../core/actor.js';
import type { Usage } from '../../core/services.js';
import { QuotaRepository } from './quota.repository.js';

/** The counters after one request, with the database's clock (the same for every process). */
export type { Usage };

export interface QuotaStatus {
  quota: number;
  remaining: number;
  reset: Date;
}

/** The next UTC midnight after `now`: when the daily quota starts again. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export class QuotaService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
  ) {}

  /**
   * A message an SMTP user relays: one request of its account (no token of its own), one
   * statement. API requests are metered by the process's Meter (meter.ts), which counts in memory
   * while requests come in parallel.
   */
  meterAccount(accountId: string, plan: Plan): Promise<Usage> {
    return this.count(accountId, null, plan, 1, true);
  }

  private async count(accountId: string, tokenId: string | null, plan: Plan, n: number, countQuota: boolean): Promise<Usage> {
    const { RATE_LIMIT_WINDOW_SECONDS, API_QUOTA_PER_DAY } = this.config;
    const limits = rateLimitsOf(this.config, plan);
    const ACCOUNT_RATE_LIMIT_REQUESTS = limits.account;
    const tokenLimit = tokenId ? limits.token : Number.MAX_SAFE_INTEGER;
    const row = await new QuotaRepository(this.em).meter({
      accountId,
      tokenId,
      hits: n,
      countQuota,
      windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
      tokenLimit,
      accountLimit: ACCOUNT_RATE_LIMIT_REQUESTS,
    });
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
    return new QuotaRepository(this.em).chargeDay(accountId, n, limit);
  }

  /**
   * The rate limits of the account's plan as it is now, when it is no longer `cached` (the plan an
   * API token was authenticated with, which a process keeps for a few seconds); null if unchanged.
   */
  async changedLimits(accountId: string, cached: Plan | undefined): Promise<{ plan: Plan; token: number; account: number } | null> {
    const plan = await new QuotaRepository(this.em).plan(accountId);
    return plan && plan !== cached ? { plan, ...rateLimitsOf(this.config, plan) } : null;
  }

  /**
   * The account's quota as it stands; reading it is not a request that counts. `unwritten`: what
   * this process has counted for the account's day and not yet written (Meter.unwrittenQuota).
   */
  async status(auth: Actor, unwritten = 0): Promise<QuotaStatus> {
    const row = await new QuotaRepository(this.em).status(auth.accountId);
    const limit = this.config.API_QUOTA_PER_DAY;
    return { quota: limit, remaining: Math.max(0, limit - row.hits - unwritten), reset: nextUtcMidnight(new Date(row.now * 1000)) };
  }
}

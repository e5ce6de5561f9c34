/** The plans an account can be on, cheapest first. No imports: settings read this file too. */
export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/**
 * Requests one API token may make per rate window (RATE_LIMIT_WINDOW_SECONDS, 60 s by default)
 * on each plan, unless RATE_LIMIT_REQUESTS sets one figure for all. Even the free plan lets a
 * script make two requests a second; an account may make ten tokens' worth together, unless
 * ACCOUNT_RATE_LIMIT_REQUESTS says otherwise.
 */
const TOKEN_REQUESTS: Record<Plan, number> = { free: 120, starter: 300, professional: 600, enterprise: 1200 };
const ACCOUNT_TOKENS = 10;

export interface RateLimits {
  token: number;
  account: number;
}

export function rateLimitsOf(
  config: { RATE_LIMIT_REQUESTS?: number; ACCOUNT_RATE_LIMIT_REQUESTS?: number },
  plan: Plan,
): RateLimits {
  const token = config.RATE_LIMIT_REQUESTS ?? TOKEN_REQUESTS[plan];
  return { token, account: config.ACCOUNT_RATE_LIMIT_REQUESTS ?? token * ACCOUNT_TOKENS };
}

/**
 * The default days (each plan's `RETENTION_DAYS_<PLAN>`, which the operator API can override) the mail an account sends is kept (messages, their emails, bodies, attachments and
 * activities), by the plan the account was on when the mail was sent (SPEC.md "Activity": retention
 * depends on the account's data retention at send time), and the days its other logs are kept
 * (webhook deliveries and attempts, domain events, inbound and SMS messages), by its current plan.
 * Free keeps a week, enough to debug an integration; paid plans keep a month, a quarter and a
 * year. Analytics' daily counts are aggregates and follow their own 6 months (sending/purge.job.ts).
 */
export const RETENTION_DAYS: Record<Plan, number> = { free: 7, starter: 30, professional: 90, enterprise: 365 };

/** The longest retention a plan may be given: ten years. */
export const RETENTION_DAYS_MAX = 3650;

/** The retention days the environment gives each plan (`RETENTION_DAYS_<PLAN>`, defaulting to RETENTION_DAYS). */
export function environmentRetention(config: Record<`RETENTION_DAYS_${Uppercase<Plan>}`, number>): Record<Plan, number> {
  return {
    free: config.RETENTION_DAYS_FREE,
    starter: config.RETENTION_DAYS_STARTER,
    professional: config.RETENTION_DAYS_PROFESSIONAL,
    enterprise: config.RETENTION_DAYS_ENTERPRISE,
  };
}

/** When mail accepted `at` (or scheduled for `sendAt`, if later) with `days` of retention may be purged. */
export function purgeAfter(days: number, at: Date, sendAt: Date | null = null): Date {
  const from = sendAt && sendAt > at ? sendAt : at;
  return new Date(from.getTime() + days * 86_400_000);
}

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
 * Days the mail an account sends is kept (messages, their emails, bodies, attachments and
 * activities), by the plan the account was on when the mail was sent (SPEC.md "Activity": retention
 * depends on the account's data retention at send time), and the days its other logs are kept
 * (webhook deliveries and attempts, domain events, inbound and SMS messages), by its current plan.
 * Free keeps a week, enough to debug an integration; paid plans keep a month, a quarter and a
 * year. Analytics' daily counts are aggregates and follow their own 6 months (sending/purge.job.ts).
 */
export const RETENTION_DAYS: Record<Plan, number> = { free: 7, starter: 30, professional: 90, enterprise: 365 };

/** When mail accepted `at` (or scheduled for `sendAt`, if later) on `plan` may be purged. */
export function purgeAfter(plan: Plan, at: Date, sendAt: Date | null = null): Date {
  const from = sendAt && sendAt > at ? sendAt : at;
  return new Date(from.getTime() + RETENTION_DAYS[plan] * 86_400_000);
}

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

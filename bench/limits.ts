/**
 * Settings every bench starts the service with: the benches measure the work behind the API,
 * not the per-token rate limit and daily quota in front of it (which would answer 429 within a
 * second of load).
 */
export const NO_API_LIMITS = { RATE_LIMIT_REQUESTS: '1000000000', ACCOUNT_RATE_LIMIT_REQUESTS: '1000000000', API_QUOTA_PER_DAY: '1000000000' };

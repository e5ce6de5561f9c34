import { z } from 'zod';

/** Console logins (docs/configuration.md). */
export const loginSettings = {
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120).describe('A console session (the `pb_session` cookie) ends after this long without a request.'),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 7)
    .describe("A console session ends this long after login, however active (also the cookie's `Max-Age`)."),
  PASSWORD_MAX_AGE_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .default(90)
    .describe('For users with `requires_periodic_password_change`: a password older than this must be changed before anything but `/auth/*` answers (403).'),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15)
    .describe("Window of the login failure counters (logins, second factors, password changes, the tokens of reset, invitation and owner links), kept by each API process on its own. Past a counter's limit, 429 with `Retry-After`."),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(10).describe('Failures per address per window.'),
  LOGIN_MAX_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(20).describe('Failures per client (an IPv4 address or an IPv6 /64) per window, whatever the addresses tried.'),
  LOGIN_MAX_FAILURES_GLOBAL: z.coerce.number().int().min(1).default(1000).describe('Failures per API process per window, all clients together, so many clients cannot guess without limit either.'),
  LOGIN_TRACKED_KEYS: z.coerce
    .number()
    .int()
    .min(10)
    .max(1_000_000)
    .default(10_000)
    .describe('Keys (addresses, clients) each counter table holds; a key whose window is open is never dropped, and when a table is full of them new keys get 429, so fresh keys cannot flush a counter.'),
  PASSWORD_HASH_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe('Password hashes (scrypt) one process runs at once, console logins and SMTP AUTH together.'),
  PASSWORD_HASH_QUEUE: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(8)
    .describe('Hashes that may wait for one; beyond, the login is refused at once (503 with `Retry-After`, `454 4.7.0` over SMTP) rather than queued.'),
  INVITE_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(24 * 7)
    .describe('How long an invitation link works after it was mailed (fractions allowed); a resend mails a fresh one.'),
};

import type { Config } from '../../config/index.js';
import { AttemptLimiter, isRefusal } from './login-limiter.js';
import { HashingBusy, passwordHashingOf, type PasswordHashing } from '../../lib/password-hashing.js';

/** What the console's login, reset, invitation and owner routes share in one process. */
export interface UserGuards {
  /** Checks of a password, a second factor or a link's token, by address and client. */
  credentials: AttemptLimiter;
  /** Password reset mails, by address and client: every request counts. */
  resetMails: AttemptLimiter;
  hashing: PasswordHashing;
}

const HOUR_MS = 60 * 60_000;

/**
 * Reset mails: 5 an hour to one address keeps the form from flooding a mailbox; a person forgets a
 * password a few times a year, so 20 an hour from one client and 200 from everyone are never hit
 * by a team, while they cap the mail a stranger can make the service send.
 */
const RESET_MAILS = { perAddress: 5, perClient: 20, overall: 200, windowMs: HOUR_MS };

type GuardSettings = Pick<
  Config,
  | 'LOGIN_FAILURE_WINDOW_MINUTES'
  | 'LOGIN_MAX_FAILURES_PER_ADDRESS'
  | 'LOGIN_MAX_FAILURES_PER_CLIENT'
  | 'LOGIN_MAX_FAILURES_GLOBAL'
  | 'LOGIN_TRACKED_KEYS'
  | 'PASSWORD_HASH_CONCURRENCY'
  | 'PASSWORD_HASH_QUEUE'
>;

export function userGuardsOf(config: GuardSettings): UserGuards {
  return {
    credentials: new AttemptLimiter({
      perAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      perClient: config.LOGIN_MAX_FAILURES_PER_CLIENT,
      overall: config.LOGIN_MAX_FAILURES_GLOBAL,
      windowMs: config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
      tableSize: config.LOGIN_TRACKED_KEYS,
    }),
    resetMails: new AttemptLimiter({ ...RESET_MAILS, tableSize: config.LOGIN_TRACKED_KEYS }),
    hashing: passwordHashingOf(config),
  };
}

/** Seconds a client is asked to wait when the password hashing is at its cap. */
export const BUSY_RETRY_SECONDS = 1;

export type Guarded<T> =
  | { kind: 'throttled'; retryAfter: number; refusedBy: 'address' | 'client' | 'overall' }
  | { kind: 'busy' }
  | { kind: 'done'; result: T };

/**
 * Runs `work` as one attempt at a credential: counted as a failure before it starts (so attempts
 * in flight together cannot pass a limit), taken back when `failed` says the result was none.
 * Refused (throttled) past a limit; `busy` when the password hashing is full (nothing counted).
 */
export async function guarded<T>(
  limiter: AttemptLimiter,
  address: string | null,
  clientIp: string,
  work: () => Promise<T>,
  failed: (result: T) => boolean,
): Promise<Guarded<T>> {
  const attempt = limiter.begin(address, clientIp);
  if (isRefusal(attempt)) return { kind: 'throttled', ...attempt };
  let result: T;
  try {
    result = await work();
  } catch (err) {
    attempt.abandoned();
    if (err instanceof HashingBusy) return { kind: 'busy' };
    throw err;
  }
  if (!failed(result)) attempt.succeeded();
  return { kind: 'done', result };
}

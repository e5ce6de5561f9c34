import type { Config } from '../config/index.js';
import { hashPassword, verifyPassword } from './secrets.js';

/** Refused at once: the hashing is at its cap and its queue is full (503 on HTTP, 454 over SMTP). */
export class HashingBusy extends Error {
  constructor() {
    super('Too many password checks at once; try again shortly.');
  }
}

/**
 * At most `concurrency` scrypt runs at once, and at most `queueMax` waiting for one; a request past
 * that is refused (HashingBusy) rather than queued, so a burst of logins cannot hold the hashing
 * threads (libuv's pool, shared with file and DNS work) for long (test/auth/throttle.test.ts,
 * "hashing cap"; test/smtp/auth-limits.test.ts, "hashing cap").
 */
export class PasswordHashing {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueMax: number,
  ) {}

  verify(password: string, stored: string): Promise<boolean> {
    return this.run(() => verifyPassword(password, stored));
  }

  hash(password: string): Promise<string> {
    return this.run(() => hashPassword(password));
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueMax) throw new HashingBusy();
      // The slot is handed over by the run that ends, so `running` stays counted meanwhile.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

type HashingSettings = Pick<Config, 'PASSWORD_HASH_CONCURRENCY' | 'PASSWORD_HASH_QUEUE'>;

/** One cap per app (its config; tests run several apps in one process). */
const caps = new WeakMap<HashingSettings, PasswordHashing>();

/**
 * The app's one cap on password hashing: console logins, invitations and owner claims
 * (modules/users) and SMTP AUTH (modules/smtp-users) share it, as they share libuv's threads.
 */
export function passwordHashingOf(config: HashingSettings): PasswordHashing {
  let cap = caps.get(config);
  if (!cap) caps.set(config, (cap = new PasswordHashing(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE)));
  return cap;
}

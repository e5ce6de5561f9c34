import { clientKeyOf } from '../../lib/client-key.js';

/**
 * Counts failed logins per key (a client, a username) in a sliding window. In memory, per process:
 * an SMTP process that restarts forgets the counts, and several SMTP processes each count on their
 * own. That bounds a guessing attack well enough (each guess already costs a scrypt, under the
 * app's hashing cap); a shared store would be needed for an exact global count.
 */
export interface LimitRule {
  max: number;
  windowMs: number;
}

/** The relay's numbers: 5 failures per username or 20 per client within 15 minutes. */
export const AUTH_LIMITS = {
  username: { max: 5, windowMs: 15 * 60_000 },
  client: { max: 20, windowMs: 15 * 60_000 },
} as const satisfies Record<string, LimitRule>;

// Past this many keys the stalest are dropped, so a flood of distinct names cannot grow memory.
const MAX_KEYS = 50_000;

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.rule.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** True once `max` failures fall within the window: further attempts are refused unchecked. */
  blocked(key: string): boolean {
    return this.recent(key).length >= this.rule.max;
  }

  /** Counts a failure; answers its time, for refund(). A key keeps at most `max` of them. */
  fail(key: string): number {
    const list = this.recent(key);
    const at = this.now();
    list.push(at);
    // Re-inserting moves the key to the end of the map's order: the first key is the stalest.
    this.failures.delete(key);
    this.failures.set(key, list.slice(-this.rule.max));
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
    return at;
  }

  /** Takes back the failure counted at `at` (the attempt turned out not to be one). */
  refund(key: string, at: number): void {
    const list = this.failures.get(key);
    const i = list ? list.lastIndexOf(at) : -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (!list!.length) this.failures.delete(key);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}

/** An AUTH attempt, counted as a failure before its password was checked. */
export interface AuthAttempt {
  /** The password was right: the attempt is taken back and the username's earlier failures forgotten. */
  succeeded(): void;
  /** The password was never judged (the hashing cap was full): nothing is counted. */
  abandoned(): void;
}

/**
 * SMTP AUTH attempts, limited per client (its IPv4 address, or its IPv6 /64: clientKeyOf) and per
 * username. Each attempt counts as a failure before its password is checked, so the attempts one
 * client makes at once over its SMTP_MAX_CONNECTIONS_PER_ADDRESS sessions cannot pass a limit
 * together (test/smtp/auth-limits.test.ts, "in flight").
 */
export class AuthLimiter {
  private readonly byUsername: FailureLimiter;
  private readonly byClient: FailureLimiter;

  constructor(now: () => number = Date.now) {
    this.byUsername = new FailureLimiter(AUTH_LIMITS.username, now);
    this.byClient = new FailureLimiter(AUTH_LIMITS.client, now);
  }

  /** A client past its limit is refused at the greeting too. */
  clientBlocked(address: string): boolean {
    return this.byClient.blocked(clientKeyOf(address));
  }

  /**
   * Counts the attempt, or answers null when the client or the username is past its limit. A
   * refused attempt counts against the client too, so one that keeps trying stays refused.
   */
  begin(address: string, username: string): AuthAttempt | null {
    const client = clientKeyOf(address);
    const name = username.toLowerCase();
    if (this.byClient.blocked(client) || this.byUsername.blocked(name)) {
      this.byClient.fail(client);
      return null;
    }
    const clientAt = this.byClient.fail(client);
    const nameAt = this.byUsername.fail(name);
    const undo = () => {
      this.byClient.refund(client, clientAt);
      this.byUsername.refund(name, nameAt);
    };
    return {
      succeeded: () => {
        undo();
        this.byUsername.reset(name);
      },
      abandoned: undo,
    };
  }
}

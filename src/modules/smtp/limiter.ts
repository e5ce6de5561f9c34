/**
 * Counts failed logins per key (a remote address, a username) in a sliding window. In memory, per
 * process: an SMTP process that restarts forgets the counts, and several SMTP processes each count
 * on their own. That bounds a guessing attack well enough (each guess already costs a scrypt);
 * a shared store would be needed for an exact global count.
 */
export interface LimitRule {
  max: number;
  windowMs: number;
}

/** The relay's numbers: 5 failures per username or 20 per address within 15 minutes. */
export const AUTH_LIMITS = {
  username: { max: 5, windowMs: 15 * 60_000 },
  address: { max: 20, windowMs: 15 * 60_000 },
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

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    // Re-inserting moves the key to the end of the map's order: the first key is the stalest.
    this.failures.delete(key);
    this.failures.set(key, list.slice(-this.rule.max));
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}

/**
 * Failed logins per address and client, in memory (per process): after `max` failures in
 * `windowMs` the pair is refused (429) until the window ends. A success clears it. Bounded: the
 * oldest pairs go first past `size` entries.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly max = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly size = 10_000,
  ) {}

  /** Seconds until the pair may try again, or 0 when it may now. */
  blockedFor(key: string): number {
    const f = this.failures.get(key);
    if (!f) return 0;
    const left = f.until - Date.now();
    if (left <= 0) {
      this.failures.delete(key);
      return 0;
    }
    return f.count >= this.max ? Math.ceil(left / 1000) : 0;
  }

  fail(key: string): void {
    const now = Date.now();
    const f = this.failures.get(key);
    if (f && f.until > now) {
      f.count += 1;
      return;
    }
    if (this.failures.size >= this.size) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { count: 1, until: now + this.windowMs });
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

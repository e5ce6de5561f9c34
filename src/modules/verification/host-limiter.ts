/**
 * Keeps the probes of one process polite to each MX host: at most `concurrency` open at once and
 * at most `perMinute` started in any 60 s. Mail providers block hosts that open many RCPT-only
 * sessions, and one blocked probe host would turn every later check into `mailbox_blocked`.
 * In memory, per process: several workers each keep their own budget.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, { active: number; starts: number[] }>();

  constructor(private readonly limits: () => { concurrency: number; perMinute: number }) {}

  /** Waits for a slot until `deadline`; returns the release function, or null when none came in time. */
  async acquire(host: string, deadline: number): Promise<(() => void) | null> {
    const key = host.toLowerCase();
    if (this.hosts.size > 5000) this.sweep();
    for (;;) {
      const now = Date.now();
      const state = this.hosts.get(key) ?? { active: 0, starts: [] };
      this.hosts.set(key, state);
      state.starts = state.starts.filter((t) => t > now - 60_000);
      const { concurrency, perMinute } = this.limits();
      if (state.active < concurrency && state.starts.length < perMinute) {
        state.active++;
        state.starts.push(now);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          state.active--;
          if (state.active === 0 && !state.starts.length) this.hosts.delete(key);
        };
      }
      // A full minute window frees up when its oldest start ages out; a full pool, when a probe ends.
      const wait = state.active >= concurrency ? 50 : state.starts[0] + 60_000 - now;
      if (now + wait > deadline) return null;
      await new Promise((r) => setTimeout(r, Math.max(10, Math.min(wait, 1000))));
    }
  }

  /** Forgets hosts with nothing open and no start in the window, so the map stays small. */
  private sweep(): void {
    const cutoff = Date.now() - 60_000;
    for (const [key, s] of this.hosts) if (!s.active && s.starts.every((t) => t <= cutoff)) this.hosts.delete(key);
  }
}

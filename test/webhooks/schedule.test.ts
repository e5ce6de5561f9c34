import { backoffSeconds, nextAttemptAt, RETRY_BASE_SECONDS, RETRY_MAX_SECONDS } from '../../src/engines/webhooks/retry.schedule.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const window = (hours = 72, createdAt = T0) => ({ createdAt, hours });

describe('nextAttemptAt', () => {
  it('doubles the backoff from 30 s, with jitter in the upper half of each delay', () => {
    // rand = 0: half the delay; rand → 1: the whole delay.
    expect(nextAttemptAt(1, T0, () => 0, null, window())).toEqual(at(15));
    expect(nextAttemptAt(1, T0, () => 0.5, null, window())).toEqual(at(22.5));
    expect(nextAttemptAt(1, T0, () => 0.999999, null, window())!.getTime()).toBeLessThanOrEqual(at(30).getTime());
    expect(nextAttemptAt(2, T0, () => 1, null, window())).toEqual(at(60));
    expect(nextAttemptAt(3, T0, () => 1, null, window())).toEqual(at(120));
    expect(nextAttemptAt(4, T0, () => 0, null, window())).toEqual(at(120));
    expect(nextAttemptAt(8, T0, () => 1, null, window())).toEqual(at(30 * 128));
  });

  it('caps the delay at 6 hours', () => {
    expect(backoffSeconds(1)).toBe(RETRY_BASE_SECONDS);
    expect(backoffSeconds(11)).toBe(RETRY_MAX_SECONDS);
    expect(backoffSeconds(500)).toBe(RETRY_MAX_SECONDS);
    expect(nextAttemptAt(40, T0, () => 1, null, window())).toEqual(at(RETRY_MAX_SECONDS));
  });

  it('uses Retry-After instead of the backoff', () => {
    expect(nextAttemptAt(1, T0, () => 0, 120, window())).toEqual(at(120));
    expect(nextAttemptAt(9, T0, () => 1, 5, window())).toEqual(at(5));
    // Retry-After: 0 still waits a second, not a busy loop.
    expect(nextAttemptAt(1, T0, () => 0, 0, window())).toEqual(at(1));
  });

  it('returns null once the next attempt would fall past the retry window', () => {
    const created = new Date(T0.getTime() - 72 * 3600_000 + 10_000); // 10 s of the window left
    expect(nextAttemptAt(1, T0, () => 0, null, window(72, created))).toBeNull(); // 15 s > 10 s
    expect(nextAttemptAt(1, T0, () => 0, 5, window(72, created))).toEqual(at(5));
    expect(nextAttemptAt(1, T0, () => 0, 3600, window(72, created))).toBeNull();
    expect(nextAttemptAt(1, T0, () => 0, null, window(0.001))).toBeNull(); // a 3.6 s window
  });

  it('retries for about three days in total with the default window', () => {
    for (const r of [0, 0.5, 1]) {
      let now = T0;
      let attempts = 1;
      for (;;) {
        const next = nextAttemptAt(attempts, now, () => r, null, window());
        if (!next) break;
        now = next;
        attempts++;
      }
      const hours = (now.getTime() - T0.getTime()) / 3600_000;
      expect(hours).toBeGreaterThan(66);
      expect(hours).toBeLessThanOrEqual(72);
      expect(attempts).toBeGreaterThan(15);
      expect(attempts).toBeLessThan(45);
    }
  });
});

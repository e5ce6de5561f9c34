/**
 * The retry schedule of a webhook delivery, as a pure function so it can be asserted exactly.
 *
 * After the n-th failed attempt the next one waits BASE * 2^(n-1), capped at MAX, with "equal
 * jitter": a random point in the upper half of that delay, so receivers that failed together
 * do not get their retries all at the same instant. A 429's Retry-After replaces the backoff.
 * Nothing is scheduled past the retry window, measured from the delivery's creation: about 30
 * attempts over 3 days with the defaults.
 */
export const RETRY_BASE_SECONDS = 30;
export const RETRY_MAX_SECONDS = 6 * 3600;

export interface RetryWindow {
  /** When the delivery was created (the event was dispatched to the webhook). */
  createdAt: Date;
  /** config.WEBHOOK_RETRY_WINDOW_HOURS */
  hours: number;
}

/** The backoff before the attempt following failed attempt number `attempts` (1-based), before jitter. */
export function backoffSeconds(attempts: number): number {
  const exp = Math.min(Math.max(attempts, 1) - 1, 30);
  return Math.min(RETRY_BASE_SECONDS * 2 ** exp, RETRY_MAX_SECONDS);
}

/**
 * When to try again after `attempts` failed attempts, or null once the window is exhausted.
 * `rand` returns a number in [0, 1) (Math.random in the engine, a constant in tests).
 */
export function nextAttemptAt(
  attempts: number,
  now: Date,
  rand: () => number,
  retryAfterSeconds: number | null = null,
  window: RetryWindow = { createdAt: now, hours: 72 },
): Date | null {
  let delayMs: number;
  if (retryAfterSeconds != null && retryAfterSeconds >= 0) {
    delayMs = Math.max(1, retryAfterSeconds) * 1000;
  } else {
    const full = backoffSeconds(attempts) * 1000;
    const r = Math.min(Math.max(rand(), 0), 1);
    delayMs = Math.round(full / 2 + (full / 2) * r);
  }
  const next = new Date(now.getTime() + delayMs);
  const deadline = window.createdAt.getTime() + window.hours * 3600_000;
  return next.getTime() > deadline ? null : next;
}

import { ConnectionException } from '@mikro-orm/core';

/**
 * SQLSTATEs of a server going away or not taking connections yet: class 08 (connection
 * exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: a restart).
 */
const SQLSTATES = /^(08\d{3}|57P0[123])$/;
/** Socket errors of a database that is down, and node-postgres's own wording for a dropped connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
const MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down)/i;

/**
 * Whether an error means the database cannot be reached right now, rather than a fault of the
 * request or of our code: such a request is answered 503 with `retry-after`, so a client sends it
 * again (nothing was stored: its transaction never committed). Walks MikroORM's and GraphQL's
 * wrapping (`cause`, `originalError`, `previous`).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let cur = err as { code?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; previous?: unknown } | undefined;
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    if (cur instanceof ConnectionException) return true;
    const code = typeof cur.code === 'string' ? cur.code : '';
    if (SQLSTATES.test(code) || SOCKET_CODES.has(code)) return true;
    if (typeof cur.message === 'string' && MESSAGES.test(cur.message)) return true;
    cur = (cur.originalError ?? cur.cause ?? cur.previous) as typeof cur;
  }
  return false;
}

/**
 * Runs a step again while the database cannot be reached (a restart under way, a server still
 * starting), for up to `seconds`, with a growing pause (250 ms a try, at most 2 s); any other error,
 * or one past the deadline, is thrown. `onWait` hears the first failure. Start-up uses it, so a
 * process started while its database restarts comes up once it is back instead of exiting; the
 * step must be safe to run twice.
 */
export async function retryWhileUnavailable<T>(seconds: number, step: () => Promise<T>, onWait?: (err: unknown) => void): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() >= deadline) throw err;
      if (attempt === 1) onWait?.(err);
      await new Promise((r) => setTimeout(r, Math.min(2000, 250 * attempt)));
    }
  }
}

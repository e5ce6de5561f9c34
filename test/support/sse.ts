import type { TestServer } from './server.js';

/** A console session's credentials: its cookie and the CSRF token every state-changing request carries. */
export interface SessionAuth {
  cookie: string;
  csrf: string;
}

/**
 * A GraphQL subscription over SSE at /graphql/stream, read event by event, as an API token, a
 * console session or nobody.
 */
export async function subscribe(s: TestServer, query: string, as: string | SessionAuth | null) {
  const ac = new AbortController();
  const credentials: Record<string, string> =
    typeof as === 'string' ? { authorization: `Bearer ${as}` } : as ? { cookie: as.cookie, 'x-csrf-token': as.csrf } : {};
  const res = await fetch(`${s.url}/graphql/stream`, {
    method: 'POST',
    signal: ac.signal,
    headers: {
      ...credentials,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ query }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: any[] = [];
  let buffer = '';
  // Read from the start and all the time, so that `events` holds everything the server sent:
  // a test asserting that nothing matching arrived can then fail (a reader that only read while
  // `next` waited would never see what it must not hear).
  let ended: Error | null = null;
  let wake: () => void = () => {};
  let changed = new Promise<void>((r) => (wake = r));
  const signal = () => {
    wake();
    changed = new Promise<void>((r) => (wake = r));
  };
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value);
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('');
          if (data) events.push(JSON.parse(data));
        }
        signal();
      }
      ended = new Error('stream ended');
    } catch (err) {
      ended = err instanceof Error ? err : new Error(String(err));
    }
    signal();
  })();
  const stream = {
    response: res,
    events,
    /** Settles once the server has closed the stream (or it broke). */
    ended: reading.then(() => 'ended' as const),
    /** Waits for the first event matching `pred` (events already received count). */
    async next(pred: (e: any) => boolean = () => true, ms = 10_000): Promise<any> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (ended) throw ended;
        if (Date.now() > deadline) throw new Error(`no matching event in ${ms} ms; got ${JSON.stringify(events)}`);
        await Promise.race([changed, new Promise((r) => setTimeout(r, deadline - Date.now()))]);
      }
    },
    /** Whether an event matching `pred` arrives within `ms`. */
    heard: (pred: (e: any) => boolean, ms = 10_000): Promise<boolean> => stream.next(pred, ms).then(() => true, () => false),
    close: () => ac.abort(),
    /**
     * Proves the subscription is live before a test relies on it: `produce` makes an event
     * (the probe) until one matching `heard` arrives. A fixed sleep is too short under load.
     */
    async live(produce: (attempt: number) => Promise<unknown>, heard: (e: any) => boolean): Promise<void> {
      for (let attempt = 0; attempt < 20; attempt++) {
        await produce(attempt);
        try {
          await stream.next(heard, 500);
          return;
        } catch {
          // not live yet: probe again
        }
      }
      throw new Error('the subscription never went live');
    },
  };
  return stream;
}

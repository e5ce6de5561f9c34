/** What a stream yields in place of an event once its reader fell behind (see LiveQueue). */
export const FELL_BEHIND: unique symbol = Symbol('fell behind');
export type Live<T> = T | typeof FELL_BEHIND;

export interface LiveQueueOptions {
  /** Events that may wait for the reader (STREAM_BUFFER_EVENTS). */
  limit: number;
  /** How long the marker waits to be read before the connection is cut (the reader reads nothing). */
  graceMs: number;
  /** Cuts the stream's connection. */
  hangUp: () => void;
  /** Stops hearing the topic. */
  unlisten: () => void;
  /** Told once, when the stream falls behind. */
  onBehind?: () => void;
}

/**
 * One live stream's events between the process's event source and its SSE writer. The writer
 * pulls an event only when the client's socket takes more (fastify waits for `drain`), so a client
 * that reads slowly or never leaves its events here. At most `limit` wait: the next one drops
 * them all, stops listening and leaves one marker (FELL_BEHIND) that the subscription's resolver
 * answers with an error event, after which the stream completes. A client that does not read even
 * that within `graceMs` has its connection cut. So a listener holds at most `limit` events,
 * however slow it is. Guarded by test/graphql/live-streams.test.ts.
 */
export class LiveQueue<T> implements AsyncIterableIterator<Live<T>> {
  private readonly waiting: Live<T>[] = [];
  private reader: ((result: IteratorResult<Live<T>>) => void) | null = null;
  private state: 'open' | 'behind' | 'done' = 'open';
  private grace: NodeJS.Timeout | null = null;

  constructor(private readonly opts: LiveQueueOptions) {}

  push(event: T): void {
    if (this.state !== 'open') return;
    if (this.reader) {
      const read = this.reader;
      this.reader = null;
      read({ value: event, done: false });
    } else if (this.waiting.length < this.opts.limit) {
      this.waiting.push(event);
    } else {
      this.fallBehind();
    }
  }

  private fallBehind(): void {
    this.state = 'behind';
    this.opts.unlisten();
    this.opts.onBehind?.();
    this.waiting.length = 0;
    this.waiting.push(FELL_BEHIND);
    this.grace = setTimeout(() => {
      this.finish();
      this.opts.hangUp();
    }, this.opts.graceMs);
    this.grace.unref();
  }

  next(): Promise<IteratorResult<Live<T>>> {
    const event = this.waiting.shift();
    if (event !== undefined) {
      if (event === FELL_BEHIND) this.finish();
      return Promise.resolve({ value: event, done: false });
    }
    if (this.state !== 'open') return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.reader = resolve));
  }

  return(): Promise<IteratorResult<Live<T>>> {
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): void {
    if (this.state === 'open') this.opts.unlisten();
    this.state = 'done';
    this.waiting.length = 0;
    if (this.grace) clearTimeout(this.grace);
    this.grace = null;
    const read = this.reader;
    this.reader = null;
    read?.({ value: undefined, done: true });
  }
}

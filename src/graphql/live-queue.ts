/** What a stream yields in place of an event once its reader fell behind (see LiveQueue). */
export const FELL_BEHIND: unique symbol = Symbol('fell behind');
export type Live<T> = T | typeof FELL_BEHIND;

/** Who takes a queue's events as they come (push mode, LiveQueue.attach). */
export interface LiveConsumer<T> {
  event(event: Live<T>): void;
  /** The stream ended: no more events. */
  end(): void;
}

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
 * One live stream's events between the process's event source and its SSE writer. Pulled
 * (`next`): the writer asks for an event only when the client's socket takes more, so a client
 * that reads slowly or never leaves its events here. At most `limit` wait: the next one drops
 * them all, stops listening and leaves one marker (FELL_BEHIND) that the subscription's resolver
 * answers with an error event, after which the stream completes. A client that does not read even
 * that within `graceMs` has its connection cut. So a listener holds at most `limit` events,
 * however slow it is. Pushed (`attach`, http/sse-frames.ts): each event is handed on as it comes
 * and the writer, which sees the socket, calls `behind()` past the same bound. Guarded by
 * test/graphql/live-streams.test.ts.
 */
export class LiveQueue<T> implements AsyncIterableIterator<Live<T>> {
  private readonly waiting: Live<T>[] = [];
  private reader: ((result: IteratorResult<Live<T>>) => void) | null = null;
  private consumer: LiveConsumer<T> | null = null;
  private state: 'open' | 'behind' | 'done' = 'open';
  private grace: NodeJS.Timeout | null = null;

  constructor(private readonly opts: LiveQueueOptions) {}

  /** How many events may wait for the reader. */
  get limit(): number {
    return this.opts.limit;
  }

  push(event: T): void {
    if (this.state !== 'open') return;
    if (this.consumer) {
      this.consumer.event(event);
    } else if (this.reader) {
      const read = this.reader;
      this.reader = null;
      read({ value: event, done: false });
    } else if (this.waiting.length < this.opts.limit) {
      this.waiting.push(event);
    } else {
      this.fallBehind();
    }
  }

  /**
   * Push mode: each event handed to `consumer` as it comes (those waiting first), with no promise
   * per event. The consumer then holds the bound: it calls `behind()` once its reader has more
   * than `limit` events unread, and is handed FELL_BEHIND, then `end()`.
   */
  attach(consumer: LiveConsumer<T>): void {
    const waiting = this.waiting.splice(0);
    this.consumer = consumer;
    for (const event of waiting) consumer.event(event);
    if (this.state === 'open') return;
    this.consumer = null;
    this.finish();
    consumer.end();
  }

  /** Push mode: the consumer's reader fell behind. It stops listening and is handed the marker, then the end. */
  behind(): void {
    const consumer = this.consumer;
    if (!consumer) return;
    this.consumer = null;
    if (this.state === 'open') this.opts.onBehind?.();
    this.finish();
    consumer.event(FELL_BEHIND);
    consumer.end();
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
    if (this.state !== 'done') this.consumer?.end();
    this.state = 'done';
    this.waiting.length = 0;
    if (this.grace) clearTimeout(this.grace);
    this.grace = null;
    const read = this.reader;
    this.reader = null;
    read?.({ value: undefined, done: true });
  }
}

import { setMaxListeners } from 'node:events';
import pg from 'pg';
import { createPubSub } from '@graphql-yoga/subscription';
import type { EntityManager } from '@mikro-orm/core';
import type { PubSub } from 'type-graphql';
import { Interest, INTEREST_CHANNEL } from './pubsub-interest.js';
import { Listener, Outbox } from './pubsub-wire.js';
import { bindAfterCommit } from './after-commit.js';

export { afterCommit } from './after-commit.js';

/** The one NOTIFY channel of events; its payload is `{topic, detail}` as JSON text. */
export const CHANNEL = 'postbox_events';

/**
 * An EventTarget whose events travel through Postgres NOTIFY, so a subscriber in the API process
 * hears what a worker process published. Listeners added and removed here are the subscriptions
 * of this process: they make its interest (pubsub-interest.ts).
 */
class PgEventTarget extends EventTarget {
  constructor(
    private readonly outbox: Outbox,
    private readonly interest: Interest,
  ) {
    super();
    // Every subscriber of the process through yoga's pubsub (revocations, cache invalidation, tests).
    setMaxListeners(0, this);
  }

  override dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.outbox.push(CHANNEL, JSON.stringify({ topic: event.type, detail }));
    return true;
  }

  override addEventListener(type: string, callback: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean): void {
    super.addEventListener(type, callback, options);
    this.interest.add(type);
  }

  override removeEventListener(type: string, callback: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean): void {
    super.removeEventListener(type, callback, options);
    this.interest.remove(type);
  }

  /** Live streams' listeners (`listen`), by topic: a Set, as thousands of them may come and go per topic (bench:subscriptions). */
  private readonly streams = new Map<string, Set<(detail: unknown) => void>>();

  listen(topic: string, onEvent: (detail: unknown) => void): () => void {
    let set = this.streams.get(topic);
    if (!set) this.streams.set(topic, (set = new Set()));
    set.add(onEvent);
    this.interest.add(topic);
    return () => {
      if (!set.delete(onEvent)) return;
      if (!set.size && this.streams.get(topic) === set) this.streams.delete(topic);
      this.interest.remove(topic);
    };
  }

  deliver(topic: string, detail: unknown) {
    for (const onEvent of this.streams.get(topic) ?? []) onEvent(detail);
    super.dispatchEvent(new CustomEvent(topic, { detail }));
  }
}

/** What type-graphql publishes: `(topic, payload)` or `(topic, id, payload)`, any topic name. */
type Topics = Record<string, [unknown] | [string | number, unknown]>;

/**
 * The app's pubsub (services.pubsub). Three ways to publish, all sent by one batched NOTIFY per
 * short interval on the pubsub's own pool:
 * - `publish(topic, detail)`: now, whoever listens (type-graphql's interface; revocations,
 *   invalidations);
 * - `live(topic, detail)`: now, and only if some process listens to `topic` (live subscriptions);
 * - `afterCommit(em, topic, detail)` (exported beside it): `live` once the transaction `em` is in
 *   commits, nothing if it rolls back. Repositories call it from inside their transaction.
 * Every process hears every event of a topic it subscribed to; a notice may be lost (NOTIFY keeps
 * no backlog, and a process's interest takes a moment to reach the others), stored data never is.
 */
export interface ClosablePubSub extends PubSub {
  live(topic: string, detail: unknown): void;
  /**
   * Calls `onEvent` with each event of `topic` this process hears, until the returned function is
   * called. Every listener of a topic is handed the same detail object (what a live stream's
   * resolver may key a shared read on).
   */
  listen(topic: string, onEvent: (detail: unknown) => void): () => void;
  /** Whether `live(topic, ...)` would send anything: a caller can skip building a notice nobody hears. */
  hears(topic: string): boolean;
  /**
   * Which LISTEN connection is up: 0 while none is, a new number after each reconnect. A cache
   * invalidated by NOTIFY keeps entries only while it stays the same (notices sent while the
   * connection was down are lost).
   */
  readonly epoch: number;
  close(): Promise<void>;
}

export interface PubSubOptions {
  /** How long a notice waits for others to go out with (PUBSUB_FLUSH_MS). */
  flushMs?: number;
  /** Announce-and-expire timings of the interest protocol (tests shorten them). */
  interestRefreshMs?: number;
  interestTtlMs?: number;
}

export async function createPgPubSub(url: string, onError: (err: unknown) => void, opts: PubSubOptions = {}): Promise<ClosablePubSub> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // An idle pooled connection cut by a restart errors on the pool, not on a query: without a
  // listener that error would crash the process.
  pool.on('error', onError);
  const outbox = new Outbox(pool, opts.flushMs ?? 5, onError);
  const interest = new Interest((payload) => outbox.push(INTEREST_CHANNEL, payload), opts.interestRefreshMs, opts.interestTtlMs);
  const target = new PgEventTarget(outbox, interest);
  const listener = new Listener(
    url,
    [CHANNEL, INTEREST_CHANNEL],
    (channel, payload) => {
      if (channel === INTEREST_CHANNEL) return interest.heard(payload);
      try {
        const { topic, detail } = JSON.parse(payload);
        target.deliver(topic, detail);
      } catch (err) {
        onError(err);
      }
    },
    // Announcements made while the connection was down were not heard: ask again.
    () => interest.hello(),
    onError,
  );
  await listener.connect();
  const pubsub = createPubSub<Topics>({ eventTarget: target });
  return {
    publish: (routingKey: string, ...args: unknown[]) => pubsub.publish(routingKey, ...(args as Topics[string])),
    // An undefined id subscribes to the bare topic, as if none were given (yoga's createPubSub).
    subscribe: (routingKey: string, dynamicId?: unknown) => pubsub.subscribe(routingKey, dynamicId),
    live(topic, detail) {
      if (interest.has(topic)) outbox.push(CHANNEL, JSON.stringify({ topic, detail }));
    },
    hears: (topic) => interest.has(topic),
    listen: (topic, onEvent) => target.listen(topic, onEvent),
    get epoch() {
      return listener.epoch;
    },
    async close() {
      interest.stop();
      await listener.close();
      await outbox.drain();
      await pool.end().catch(() => undefined);
    },
  };
}

/** Sends the ORM's after-commit notices (`afterCommit`) through this pubsub. */
export function bindPubSub(em: EntityManager, pubsub: ClosablePubSub): void {
  bindAfterCommit(em, { live: (t, d) => pubsub.live(t, d), publish: (t, d) => pubsub.publish(t, d) });
}

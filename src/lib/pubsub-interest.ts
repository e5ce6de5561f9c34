import { randomUUID } from 'node:crypto';
import { PAYLOAD_MAX } from './pubsub-wire.js';

/** The control channel on which processes announce the topics they listen to. */
export const INTEREST_CHANNEL = 'postbox_interest';

/**
 * What one announcement says: `hello` asks every process to announce all its topics (a process
 * that just started, or whose LISTEN connection came back, knows nobody's); `set` says `i` listens
 * to topics `t` for the next `ttl` seconds; `del` that it no longer listens to them.
 */
interface Announcement {
  i: string;
  op: 'hello' | 'set' | 'del';
  t?: string[];
  ttl?: number;
}

/**
 * Which topics have a listener in some process, so that producers skip the NOTIFYs nobody would
 * hear (most sends have no live subscriber). Each process counts its own subscriptions; the first
 * subscription to a topic is announced at once, the last one's end too, and every `refreshMs` the
 * whole set again, valid for `ttlMs` (three refreshes): a process that died without saying so
 * stops counting after that. An announcement lost on the way costs live events until the next
 * refresh, never stored data.
 */
export class Interest {
  readonly id = randomUUID();
  private readonly local = new Map<string, number>();
  /** topic → process id → until when (ms). */
  private readonly remote = new Map<string, Map<string, number>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly send: (payload: string) => void,
    private readonly refreshMs = 10_000,
    private readonly ttlMs = 30_000,
  ) {
    this.timer = setInterval(() => {
      this.announceAll();
      this.prune();
    }, refreshMs);
    this.timer.unref();
  }

  /** Whether anyone, here or in another process, listens to `topic` now. */
  has(topic: string): boolean {
    if (this.local.has(topic)) return true;
    const by = this.remote.get(topic);
    if (!by) return false;
    const now = Date.now();
    for (const until of by.values()) if (until > now) return true;
    return false;
  }

  /** A subscription to `topic` started in this process. */
  add(topic: string): void {
    const n = this.local.get(topic) ?? 0;
    this.local.set(topic, n + 1);
    if (n === 0) this.announce('set', [topic]);
  }

  /** A subscription to `topic` ended in this process. */
  remove(topic: string): void {
    const n = this.local.get(topic) ?? 0;
    if (n > 1) return void this.local.set(topic, n - 1);
    this.local.delete(topic);
    if (n === 1) this.announce('del', [topic]);
  }

  /** Asks the others for their topics (this process knows none of them yet). */
  hello(): void {
    this.send(JSON.stringify({ i: this.id, op: 'hello' } satisfies Announcement));
  }

  /** An announcement heard on INTEREST_CHANNEL (this process's own ones included). */
  heard(payload: string): void {
    let a: Announcement;
    try {
      a = JSON.parse(payload) as Announcement;
    } catch {
      return;
    }
    if (a.i === this.id) return;
    if (a.op === 'hello') return this.announceAll();
    for (const topic of a.t ?? []) {
      if (a.op === 'set') {
        const by = this.remote.get(topic) ?? new Map<string, number>();
        by.set(a.i, Date.now() + (a.ttl ?? this.ttlMs / 1000) * 1000);
        this.remote.set(topic, by);
      } else {
        this.remote.get(topic)?.delete(a.i);
        if (this.remote.get(topic)?.size === 0) this.remote.delete(topic);
      }
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private announceAll(): void {
    if (this.local.size) this.announce('set', [...this.local.keys()]);
  }

  /** In as many NOTIFYs as the topics need, each under PostgreSQL's payload limit. */
  private announce(op: 'set' | 'del', topics: string[]): void {
    const ttl = Math.ceil(this.ttlMs / 1000);
    const budget = PAYLOAD_MAX - 200;
    let chunk: string[] = [];
    let size = 0;
    const flush = () => {
      if (chunk.length) this.send(JSON.stringify({ i: this.id, op, t: chunk, ttl } satisfies Announcement));
      chunk = [];
      size = 0;
    };
    for (const topic of topics) {
      if (size + topic.length + 3 > budget) flush();
      chunk.push(topic);
      size += topic.length + 3;
    }
    flush();
  }

  private prune(): void {
    const now = Date.now();
    for (const [topic, by] of this.remote) {
      for (const [id, until] of by) if (until <= now) by.delete(id);
      if (!by.size) this.remote.delete(topic);
    }
  }
}

import type { Plan } from '../accounts/account.entity.js';
import type { AppServices } from '../../services.js';

/** A domain as acceptance needs it: whether it may send and how its settings shape the send. */
export interface SenderDomain {
  id: string;
  name: string;
  is_verified: boolean;
  trusted: boolean;
  send_paused: boolean;
  ignore_duplicated_recipients: boolean;
}

/** An account's plan and all its domains. */
export interface Sender {
  plan: Plan;
  domains: SenderDomain[];
}

/**
 * The topic the database announces changes of what this cache keeps on, with `{account_id}`: its
 * triggers (migration Migration20261125110000_sender_notify) NOTIFY it when a domain is added,
 * deleted, verified, trusted or its settings change (send_paused among them), and when an account's
 * plan changes, whatever made the change.
 */
export const SENDER_CHANGED = 'sender_changed';

/** Accounts kept at most per process (the least recently used go first). */
const MAX_ENTRIES = 10_000;

interface Entry {
  at: number;
  epoch: number;
  sender: Sender;
}

/**
 * Each process keeps accounts' plans and domains for up to SEND_CACHE_SECONDS, so that accepting a
 * send does not read them. A change reaches every process by NOTIFY within milliseconds of its
 * commit (SENDER_CHANGED); a paused or deleted domain stops accepting within a second. The NOTIFY
 * may be lost only while the LISTEN connection is down, and then nothing is kept: entries are
 * trusted only while the connection they were read under (the pubsub's `epoch`) is still up, so
 * the age bound is the worst case. A read that overlapped an invalidation is not kept.
 */
export class SenderCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a read that started before one is used but not kept. */
  private generation = 0;
  /** Set when invalidations can no longer be heard: nothing is kept from then on. */
  private deaf = false;

  constructor(
    private readonly pubsub: AppServices['pubsub'],
    private readonly ttlMs: number,
  ) {}

  /**
   * The account's sender, kept or read by `load`; `kept` says it was not read now. `fresh` reads
   * it whatever is kept: a send refused on kept data is judged again on fresh data, so that a
   * domain added or verified, or a plan raised, a moment ago is never refused for a stale entry.
   */
  async get(accountId: string, load: () => Promise<Sender | null>, fresh = false): Promise<{ sender: Sender | null; kept: boolean }> {
    const epoch = this.pubsub.epoch;
    if (!this.ttlMs || !epoch || this.deaf) return { sender: await load(), kept: false };
    const now = Date.now();
    const hit = fresh ? undefined : this.entries.get(accountId);
    if (hit && hit.epoch === epoch && now - hit.at < this.ttlMs) {
      // Most recently used last: the first key is the one to drop.
      this.entries.delete(accountId);
      this.entries.set(accountId, hit);
      return { sender: hit.sender, kept: true };
    }
    const generation = this.generation;
    const sender = await load();
    if (sender && generation === this.generation && this.pubsub.epoch === epoch) {
      this.entries.delete(accountId);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(accountId, { at: now, epoch, sender });
    }
    return { sender, kept: false };
  }

  invalidate(accountId: string | undefined): void {
    this.generation++;
    if (accountId) this.entries.delete(accountId);
    else this.entries.clear();
  }

  stopListening(): void {
    this.deaf = true;
    this.entries.clear();
  }
}

const caches = new WeakMap<AppServices['pubsub'], SenderCache>();

/** The app's cache (one per pubsub, so apps started side by side in one process keep theirs apart). */
export function senderCache(services: Pick<AppServices, 'pubsub' | 'config' | 'log'>): SenderCache {
  let cache = caches.get(services.pubsub);
  if (cache) return cache;
  cache = new SenderCache(services.pubsub, services.config.SEND_CACHE_SECONDS * 1000);
  caches.set(services.pubsub, cache);
  const own = cache;
  const changes = services.pubsub.subscribe(SENDER_CHANGED) as AsyncIterable<{ account_id?: string }>;
  void (async () => {
    try {
      for await (const change of changes) own.invalidate(change?.account_id);
    } catch (err) {
      services.log.error({ err }, 'sender cache invalidation stopped');
    } finally {
      own.stopListening();
    }
  })();
  return cache;
}

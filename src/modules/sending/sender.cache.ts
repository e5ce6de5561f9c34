import type { Plan } from '../accounts/account.entity.js';
import type { AppServices } from '../../core/services.js';
import { InvalidatedCache } from '../../lib/invalidated-cache.js';

/** A domain as acceptance needs it: whether it may send and how its settings shape the send. */
export interface SenderDomain {
  id: string;
  name: string;
  is_verified: boolean;
  trusted: boolean;
  send_paused: boolean;
  ignore_duplicated_recipients: boolean;
}

/** An account's plan, the retention days of its plan, and all its domains. */
export interface Sender {
  plan: Plan;
  /** What acceptance stamps `purge_after` with: the operator's days for the plan, else the environment's. */
  retention_days: number;
  domains: SenderDomain[];
}

/**
 * The topic the database announces changes of what this cache keeps on, with `{account_id}`: its
 * triggers (migration Migration20261125110000_sender_notify) NOTIFY it when a domain is added,
 * deleted, verified, trusted or its settings change (send_paused among them), and when an account's
 * plan changes, whatever made the change; a plan's retention days change for every account.
 */
export const SENDER_CHANGED = 'sender_changed';

/**
 * Each process keeps accounts' plans and domains for up to SEND_CACHE_SECONDS, so that accepting a
 * send does not read them. A change reaches every process by NOTIFY within milliseconds of its
 * commit (SENDER_CHANGED); a paused or deleted domain stops accepting within a second. What is
 * trusted while notices may be lost is lib/invalidated-cache.ts's rule.
 */
export class SenderCache {
  private readonly cache: InvalidatedCache<string, Sender>;

  constructor(pubsub: AppServices['pubsub'], ttlMs: number) {
    this.cache = new InvalidatedCache(ttlMs, () => pubsub.epoch);
  }

  /**
   * The account's sender, kept or read by `load`; `kept` says it was not read now. `fresh` reads
   * it whatever is kept: a send refused on kept data is judged again on fresh data, so that a
   * domain added or verified, or a plan raised, a moment ago is never refused for a stale entry.
   */
  async get(accountId: string, load: () => Promise<Sender | null>, fresh = false): Promise<{ sender: Sender | null; kept: boolean }> {
    const hit = fresh ? undefined : this.cache.get(accountId);
    if (hit) return { sender: hit, kept: true };
    const mark = this.cache.mark();
    const sender = await load();
    if (sender) this.cache.set(accountId, sender, mark);
    return { sender, kept: false };
  }

  invalidate(accountId: string | undefined): void {
    this.cache.invalidate(accountId);
  }

  stopListening(): void {
    this.cache.stop();
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

import type { Logger } from 'pino';
import type { Actor } from './actor.js';
import type { ClosablePubSub } from '../lib/pubsub.js';
import { InvalidatedCache, type CacheMark } from '../lib/invalidated-cache.js';

/**
 * The topic (lib/pubsub.ts `{topic, detail}` on the one NOTIFY channel) that says a token or an
 * account's plan changed: database triggers on `api_tokens` (any update or delete, cascades from
 * a domain or an account included) and on `accounts.plan` send it when their transaction commits
 * (migration auth_notify), so every process hears it whoever made the change.
 */
export const AUTH_CHANGED = 'auth_changed';

export interface AuthChanged {
  token_id?: string;
  account_id?: string;
}

/** Every cache of this process: a change made here is forgotten by all of them at once. */
const live = new Set<TokenCache>();

/**
 * sha256(token) → the caller it authenticates (account, token, scopes, domain, plan), so that a
 * request does not read its token from the database. Only valid, unpaused tokens are kept;
 * unknown hashes are not (a new token works at once). Bounded by `max` entries and by age (lib/
 * invalidated-cache.ts). A change is forgotten by every process when the AUTH_CHANGED notice
 * arrives (milliseconds after its commit); the age is the fallback for a notice lost while the
 * LISTEN connection was down. The process that makes a change also forgets it before answering
 * (forgetTokenHere), so its next request never sees it.
 */
export class TokenCache {
  private readonly cache: InvalidatedCache<string, Actor>;
  private stopListening: (() => void) | null = null;

  constructor(maxAgeMs: number, epoch: () => number, max = 10_000) {
    this.cache = new InvalidatedCache(maxAgeMs, epoch, max);
    live.add(this);
  }

  get(hash: string): Actor | null {
    return this.cache.get(hash) ?? null;
  }

  /** Where a lookup starts: pass it to `set`, which ignores the answer if anything was forgotten since. */
  mark(): CacheMark {
    return this.cache.mark();
  }

  set(hash: string, auth: Actor, mark: CacheMark): void {
    this.cache.set(hash, auth, mark);
  }

  /** Drops the entries of a token, of a whole account, or (no argument) everything. */
  forget(change: AuthChanged = {}): void {
    if (!change.token_id && !change.account_id) return this.cache.invalidate();
    this.cache.invalidate(undefined, (auth) => auth.tokenId === change.token_id || auth.accountId === change.account_id);
  }

  get size(): number {
    return this.cache.size;
  }

  /** Forgets what AUTH_CHANGED notices name, from whichever process they come, until close(). */
  listen(pubsub: ClosablePubSub, log: Logger): void {
    const notices = pubsub.subscribe(AUTH_CHANGED) as AsyncIterableIterator<AuthChanged>;
    this.stopListening = () => void notices.return?.();
    void (async () => {
      try {
        for await (const change of notices) this.forget(change ?? {});
      } catch (err) {
        // Without notices the cache could keep a paused token for its whole age: keep nothing.
        log.error({ err }, 'token cache invalidation stopped; tokens are read on every request');
        this.close();
      }
    })();
  }

  close(): void {
    live.delete(this);
    this.stopListening?.();
    this.stopListening = null;
    this.cache.stop();
  }
}

/** The change was made by this process: every cache here forgets it now, before the notice arrives. */
export function forgetTokenHere(change: AuthChanged): void {
  for (const cache of live) cache.forget(change);
}

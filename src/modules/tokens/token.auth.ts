import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../core/actor.js';
import type { TokenCache } from '../../core/token-cache.js';
import { safeEqual, sha256Hex } from '../../lib/secrets.js';
import { ApiToken } from './token.entity.js';

export type Credential = { kind: 'none' } | { kind: 'invalid' } | { kind: 'operator' } | { kind: 'token'; auth: Actor };

/**
 * Reads `Authorization: Bearer <secret>`: the operator token, an account API token, or nothing.
 * With a `cache` (services.tokenCache), a token authenticated in the last few seconds is not read
 * again: the cache forgets it when it is paused, deleted or changed (core/token-cache.ts). Unknown and
 * paused tokens are read every time, so a new or unpaused token works at once.
 */
export async function authenticate(
  em: EntityManager,
  header: string | undefined,
  operatorToken: string | undefined,
  cache?: TokenCache,
): Promise<Credential> {
  if (!header) return { kind: 'none' };
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return { kind: 'invalid' };
  const secret = m[1];
  if (operatorToken && safeEqual(secret, operatorToken)) return { kind: 'operator' };
  const hash = sha256Hex(secret);
  // A cached entry is keyed by the full hash of the secret; a hit is as good as the lookup below.
  const cached = cache?.get(hash);
  if (cached) return { kind: 'token', auth: cached };
  const mark = cache?.mark();
  // The account's plan comes in the same statement (a join): it sets the token's rate limits.
  const token = await em.findOne(
    ApiToken,
    { token_hash: hash },
    { fields: ['id', 'name', 'status', 'scopes', 'domain', 'token_hash', 'account.plan'], populate: ['account'], strategy: 'joined' },
  );
  // The lookup is by hash; the final comparison is constant-time all the same.
  if (!token || !safeEqual(token.token_hash, hash) || token.status === 'pause') return { kind: 'invalid' };
  const auth: Actor = {
    accountId: token.account.id,
    tokenId: token.id,
    tokenName: token.name,
    scopes: new Set(token.scopes),
    domainId: token.domain?.id ?? null,
    plan: token.account.plan,
  };
  if (mark) cache?.set(hash, auth, mark);
  return { kind: 'token', auth };
}

import { getMetadataStorage, type AuthChecker } from 'type-graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiToken } from '../modules/tokens/token.entity.js';
import type { TokenCache } from '../modules/tokens/token.cache.js';
import { safeEqual, sha256Hex } from '../lib/secrets.js';
import type { Auth, Ctx } from './context.js';
import { errors } from '../core/errors.js';
import { OPERATOR, WHOLE_ACCOUNT, scopeSatisfied } from '../core/scopes.js';
import { asGraphQLError } from './errors.js';
import { isDomainLimited } from '../core/actor.js';

export type Credential = { kind: 'none' } | { kind: 'invalid' } | { kind: 'operator' } | { kind: 'token'; auth: Auth };

/**
 * Reads `Authorization: Bearer <secret>`: the operator token, an account API token, or nothing.
 * With a `cache` (services.tokenCache), a token authenticated in the last few seconds is not read
 * again: the cache forgets it when it is paused, deleted or changed (token.cache.ts). Unknown and
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
  const auth: Auth = {
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

/**
 * `@Authorized('domains_read')` next to each resolver declares the scope it needs; the same
 * declaration guards GraphQL and /v1, since /v1 runs the same resolvers, and console sessions,
 * whose Actor holds the scopes of its user's permissions (core/scopes.ts PERMISSION_SCOPES).
 */
export const authChecker: AuthChecker<Ctx> = ({ context }, roles) => {
  // type-graphql runs this outside the schema's global middlewares: it converts for itself.
  try {
    return checkRoles(context, roles);
  } catch (err) {
    throw asGraphQLError(err);
  }
};

/** authChecker's decision: true, or the 401/403 of the error catalogue thrown. */
export function checkRoles(context: Ctx, roles: string[]): true {
  if (roles.includes(OPERATOR)) {
    if (context.operator) return true;
    throw context.auth ? errors.forbidden() : errors.unauthenticated();
  }
  // The operator is known, just not an account: account operations are forbidden to it, not unknown.
  if (!context.auth) throw context.operator ? errors.forbidden('The operator token is for the operator API only.') : errors.unauthenticated();
  const scopes = roles.filter((r) => r !== WHOLE_ACCOUNT);
  if (scopes.length > 0 && !scopes.some((r) => scopeSatisfied(context.auth!.scopes, r))) {
    throw errors.forbidden('This token does not have the scope this action needs.');
  }
  if (isDomainLimited(context.auth) && scopes.length < roles.length) throw errors.forbidden(WHOLE_ACCOUNT_ONLY);
  // A token is of one domain or of the whole account; a user limited to several domains could only
  // make it the latter, reaching beyond them. Refused until tokens can name several domains.
  if (context.auth.domainIds?.length && scopes.includes('tokens_full')) throw errors.forbidden(SEVERAL_DOMAINS_NO_TOKENS);
  return true;
}

export const SEVERAL_DOMAINS_NO_TOKENS = 'A user limited to several domains cannot manage API tokens; limit them to one domain, or none.';

export const WHOLE_ACCOUNT_ONLY = 'This token is limited to one domain; this action needs a token for the whole account.';

let rootScopes: Map<string, string[]> | null = null;
/**
 * The roles `@Authorized` declares on a root field (by its schema name), read from type-graphql's
 * metadata once the schema is built. /v1 checks them before the arguments, so a caller without
 * the scope learns nothing of an operation's argument rules: a 403, never a 422.
 */
export function rootFieldRoles(field: string): string[] | undefined {
  if (!rootScopes) {
    const storage = getMetadataStorage();
    rootScopes = new Map();
    for (const r of [...storage.queries, ...storage.mutations]) {
      const declared = storage.authorizedFields.find((a) => a.target === r.target && a.fieldName === r.methodName);
      if (declared) rootScopes.set(r.schemaName, declared.roles as string[]);
    }
  }
  return rootScopes.get(field);
}

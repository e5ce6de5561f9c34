import { getMetadataStorage, type AuthChecker } from 'type-graphql';
import type { Auth, Ctx } from './context.js';
import { errors } from '../core/errors.js';
import { OPERATOR, WHOLE_ACCOUNT, scopeSatisfied } from '../core/scopes.js';
import { asGraphQLError } from './errors.js';
import { isDomainLimited } from '../core/actor.js';

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

import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName, FilterObject, FilterQuery, Loaded, Populate } from '@mikro-orm/core';
import { type Actor, assertDomainAccess, domainsOf, isDomainLimited } from '../core/actor.js';
import { errors } from '../core/errors.js';
import { sqlRow } from './sql.js';

/**
 * Loads one row of the caller's account. Another account's id answers exactly like a missing
 * one (404), so ids cannot be probed across accounts.
 *
 * For a token limited to a domain, on a table whose rows may belong to a domain: a row of
 * another domain of the account is 403 (it exists, the token may not touch it), and a row of no
 * domain (an account-wide template, token, suppression or SMS webhook) is 404, as for another
 * account's ids: it is outside the token's world.
 */
export async function findOwned<T extends object, P extends string = never>(
  em: EntityManager,
  entity: EntityName<T>,
  auth: Actor,
  where: FilterObject<T>,
  populate: Populate<T, P> = [],
): Promise<Loaded<T, P>> {
  // Every entity passed here has an `account` relation, which a generic T does not show.
  const owned = { ...where, account: auth.accountId } as FilterQuery<NoInfer<T>>;
  const row = await em.findOne(entity, owned, { populate });
  if (!row) throw errors.notFound();
  if (isDomainLimited(auth) && hasDomain(em, entity)) {
    const domain = (row as { domain?: { id: string } | null }).domain;
    if (!domain) throw errors.notFound();
    assertDomainAccess(auth, domain.id);
  }
  // A domain itself, for a caller limited to several (services check `domainId` themselves).
  if (auth.domainIds?.length && em.getMetadata().find(entity)?.tableName === 'domains') assertDomainAccess(auth, (row as object as { id: string }).id);
  // A session user limited to some templates (users' template access): others exist, but not for them.
  if (auth.templateIds?.length && em.getMetadata().find(entity)?.tableName === 'templates') {
    if (!auth.templateIds.includes((row as object as { id: string }).id)) throw errors.forbidden('This user is limited to other templates.');
  }
  return row;
}

/** Whether rows of this entity can belong to a domain (a `domain` relation). */
function hasDomain<T extends object>(em: EntityManager, entity: EntityName<T>): boolean {
  return 'domain' in (em.getMetadata().find(entity)?.properties ?? {});
}

/**
 * The filter that limits a list to what the caller may see: the account's rows and, for a token
 * limited to a domain, that domain's rows only (rows of no domain are left out with the others).
 */
export function visibleTo(auth: Actor, domainField: string | null = 'domain'): Record<string, unknown> {
  const where: Record<string, unknown> = { account: auth.accountId };
  if (domainField && auth.domainId) where[domainField] = auth.domainId;
  else if (domainField && auth.domainIds?.length) where[domainField] = { $in: [...auth.domainIds] };
  return where;
}

/**
 * The domain a filter or path names, checked like any owned resource: another account's (or a
 * missing) domain is 404, another domain than a domain-limited token's is 403.
 */
export async function ownedDomainId(em: EntityManager, auth: Actor, domainId: string): Promise<string> {
  const row = await sqlRow<{ id: string }>(em, 'select id from domains where id = $1 and account_id = $2', [domainId, auth.accountId]);
  if (!row) throw errors.notFound();
  assertDomainAccess(auth, domainId);
  return domainId;
}

/**
 * The domains a list is limited to: the one asked for (checked like any owned domain), else the
 * caller's own (a token's one, a user's one or several), else none (null: the whole account).
 */
export async function domainsScope(em: EntityManager, auth: Actor, domainId: string | null | undefined): Promise<readonly string[] | null> {
  if (domainId) return [await ownedDomainId(em, auth, domainId)];
  return domainsOf(auth);
}

import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain } from '../domains/domain.entity.js';
import { Template } from '../templates/template.entity.js';
import { visibleTo } from '../../db/scoped.js';
import type { AccessArgs } from './user.inputs.js';
import type { AccountUser, Invite } from './user.entity.js';
import { CUSTOM_ROLE, canonicalRole, permissionsOf } from './roles.js';
import { type Actor, domainsOf } from '../../core/actor.js';
import { errors, msg, type FieldErrorBag } from '../../core/errors.js';

/** What a user (or the invite that becomes one) may do and reach, checked against the account. */
export interface Access {
  role: string;
  permissions: string[];
  domain_ids: string[];
  template_ids: string[];
  requires_periodic_password_change: boolean;
}

const DOMAIN_FORBIDDEN = 'This token is limited to another domain.';

/**
 * Checks the database-bound rules of the access fields into `bag` (the caller throws once, with
 * its own checks alongside). For a domain-limited token the result is confined to its domain,
 * the way such a token can only make tokens of its own domain.
 */
export async function resolveAccess(
  em: EntityManager,
  auth: Actor,
  args: AccessArgs,
  bag: FieldErrorBag,
  current?: Access,
): Promise<Access> {
  // Validation already refused unknown names.
  const role = canonicalRole(args.role)!;
  const custom = role === CUSTOM_ROLE;
  if (custom && !args.permissions?.length) bag.add('permissions', msg.requiredIf('permissions', 'role', CUSTOM_ROLE));

  const domainIds = args.domains ?? current?.domain_ids ?? [];
  if (args.domains?.length) {
    const found = await em.find(Domain, { id: { $in: args.domains }, account: auth.accountId }, { fields: ['id'] });
    const known = new Set(found.map((d) => d.id));
    args.domains.forEach((id, i) => {
      if (!known.has(id)) bag.add(`domains.${i}`, msg.in(`domains.${i}`));
    });
  }
  if (args.templates?.length) {
    // Only templates the caller can see: a domain-limited token grants its own domain's only.
    const found = await em.find(Template, { id: { $in: args.templates }, ...visibleTo(auth) }, { fields: ['id'] });
    const known = new Set(found.map((t) => t.id));
    args.templates.forEach((id, i) => {
      if (!known.has(id)) bag.add(`templates.${i}`, msg.in(`templates.${i}`));
    });
  }

  bag.throwIfAny();
  const access: Access = {
    role,
    permissions: permissionsOf(role, custom ? (args.permissions ?? []) : []),
    domain_ids: [...new Set(domainIds)],
    template_ids: [...new Set(args.templates ?? current?.template_ids ?? [])],
    requires_periodic_password_change:
      args.requires_periodic_password_change ?? current?.requires_periodic_password_change ?? false,
  };
  const own = domainsOf(auth);
  if (own) {
    if (access.domain_ids.some((id) => !own.includes(id))) throw errors.forbidden(DOMAIN_FORBIDDEN);
    if (!access.domain_ids.length) access.domain_ids = [...own];
  }
  return access;
}


/**
 * The account's people (or invitations) a caller sees: a domain-limited token sees those who can
 * work on its domain (every domain, or a list that includes it); other tokens see them all.
 */
export function reachableBy(auth: Actor): FilterQuery<AccountUser> & FilterQuery<Invite> {
  const own = domainsOf(auth);
  if (!own) return { account: auth.accountId };
  if (auth.domainId) return { account: auth.accountId, $or: [{ domain_ids: { $contained: [] } }, { domain_ids: { $contains: [auth.domainId] } }] };
  // A session user limited to several domains sees whoever can work on one of them.
  return { account: auth.accountId, $or: [{ domain_ids: { $contained: [] } }, { domain_ids: { $overlap: [...own] } }] };
}

/** Reading someone who cannot work on the caller's domains: 403, the row exists in the account. */
export function assertVisible(auth: Actor, domainIds: readonly string[]): void {
  const own = domainsOf(auth);
  if (own && domainIds.length > 0 && !domainIds.some((id) => own.includes(id))) {
    throw errors.forbidden(DOMAIN_FORBIDDEN);
  }
}

/** Changing someone is only for callers that reach everything that person reaches. */
export function assertConfined(auth: Actor, domainIds: readonly string[]): void {
  const own = domainsOf(auth);
  if (own && (domainIds.length === 0 || domainIds.some((id) => !own.includes(id)))) {
    throw errors.forbidden(DOMAIN_FORBIDDEN);
  }
}

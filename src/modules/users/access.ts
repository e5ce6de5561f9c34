import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain } from '../domains/domain.entity.js';
import { Template } from '../templates/template.entity.js';
import { visibleTo } from '../../db/scoped.js';
import type { AccessArgs } from './user.inputs.js';
import type { AccountUser, Invite } from './user.entity.js';
import { ADMIN_ROLE, CUSTOM_ROLE, PERMISSIONS, canonicalRole, permissionsOf } from './roles.js';
import { PERMISSION_SCOPES, SCOPES, scopeSatisfied } from '../../core/scopes.js';
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
    // Only templates the caller can see: a domain-limited token grants its own domain's only (a
    // template-limited caller's others exist: assertHeld refuses them with a 403).
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
  // A limited caller's grant is limited the same way when it names none: its own domains, its own templates.
  const own = domainsOf(auth);
  if (own) {
    if (access.domain_ids.some((id) => !own.includes(id))) throw errors.forbidden(DOMAIN_FORBIDDEN);
    if (!access.domain_ids.length) access.domain_ids = [...own];
  }
  if (auth.templateIds?.length && !access.template_ids.length) access.template_ids = [...auth.templateIds];
  assertHeld(auth, access);
  return access;
}

/**
 * What a caller holds, in the terms of a user's access: a session user its own permissions, domains
 * and templates; a token the permissions whose scopes it holds (one that maps to no scope, billing
 * or the file manager, grants nothing a token could hold, so any token has it), its domain, every
 * template. The admin role holds every scope (session.service.ts actorOfUser), so only a caller
 * holding every scope grants it.
 */
export interface Held {
  permissions: ReadonlySet<string>;
  everyScope: boolean;
  /** null: every domain of the account. */
  domains: readonly string[] | null;
  /** null: every template of the account. */
  templates: readonly string[] | null;
}

type Granted = Pick<Access, 'role' | 'permissions' | 'domain_ids' | 'template_ids'>;

export function heldBy(auth: Actor): Held {
  const everyScope = SCOPES.every((s) => auth.scopes.has(s));
  const permissions = auth.permissions ?? PERMISSIONS.filter((p) => (PERMISSION_SCOPES[p] ?? []).every((s) => scopeSatisfied(auth.scopes, s)));
  return { permissions: new Set(permissions), everyScope, domains: domainsOf(auth), templates: auth.templateIds?.length ? auth.templateIds : null };
}

/** What is missing from `held` for `access`, as the refusal says it; null when it holds it all. */
function shortOf(held: Held, access: Granted): string | null {
  if (access.role === ADMIN_ROLE && !held.everyScope) return 'the admin role';
  // A preset's permissions are the preset's, whatever was stored (roles.ts).
  const lacking = permissionsOf(access.role, access.permissions).filter((p) => !held.permissions.has(p));
  if (lacking.length) return `the permissions ${lacking.join(', ')}`;
  if (held.domains && (!access.domain_ids.length || access.domain_ids.some((id) => !held.domains!.includes(id)))) return 'those domains';
  if (held.templates && (!access.template_ids.length || access.template_ids.some((id) => !held.templates!.includes(id)))) return 'those templates';
  return null;
}

/**
 * A caller grants only what it holds: the role, the permissions, the domains and the templates of
 * an invitation or a change, whoever it is for (the caller itself too). 403, and nothing is stored
 * (test/users/grant-matrix.test.ts).
 */
export function assertHeld(auth: Actor, access: Granted): void {
  const short = shortOf(heldBy(auth), access);
  if (short) throw errors.forbidden(`You cannot grant access you do not hold yourself: ${short}.`);
}

/**
 * Changing or removing someone (a user or an invitation) is only for a caller whose access covers
 * theirs: a lesser member cannot demote, lock out or remove a greater one (test/users/grant-matrix.test.ts).
 */
export function assertCovers(auth: Actor, target: Granted): void {
  assertConfined(auth, target.domain_ids);
  if (shortOf(heldBy(auth), target)) throw errors.forbidden('This member has access you do not hold yourself; someone whose access covers theirs must change it.');
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

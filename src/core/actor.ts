import { errors } from './errors.js';
import type { Plan } from '../config/plans.js';

/**
 * Who is calling, as every service sees it, whatever the surface: an account's API token (on
 * GraphQL or /v1), an SMTP user (relay), or a job acting for an account (a bulk send).
 */
export interface Actor {
  accountId: string;
  /** The API token's id; `smtp:<user id>` for an SMTP user, `bulk` for the bulk job. */
  tokenId: string;
  scopes: ReadonlySet<string>;
  /** Set when the caller is limited to one domain. */
  domainId: string | null;
  /**
   * Set (two or more ids) when the caller is limited to several domains: an account user whose
   * access lists them. `domainId` is null then; scoped reads (db/scoped.ts) and
   * assertDomainAccess honour this list. A user limited to one domain gets `domainId` instead,
   * which every service already honours.
   */
  domainIds?: readonly string[] | null;
  /** The account user behind a console session (modules/users/session.service.ts); absent for tokens. */
  userId?: string;
  /** That session's id (the sha256 of its cookie): live streams end when it does (http/stream-guard.ts). */
  sessionId?: string;
  /** Templates a session user is limited to (empty or absent: all). */
  templateIds?: readonly string[] | null;
  /**
   * A session user's permissions (modules/users/roles.ts), which bound what it may grant others;
   * absent for tokens, whose scopes bound it instead (modules/users/access.ts heldBy).
   */
  permissions?: readonly string[];
  /** The token's name, for the audit log; absent for callers that are no API token (SMTP relay, bulk jobs). */
  tokenName?: string;
  /** The client's address, for the audit log, when the entry point knows it. */
  ip?: string | null;
  /** The account's plan, when the entry point read it (API tokens): it sets the rate limits. */
  plan?: Plan;
}

/**
 * The domains a caller is limited to (a token's one, a session user's one or several), or null
 * for the whole account. Code that checks `domainId` alone treats a several-domain user as
 * account-wide; new checks should read this.
 */
export function domainsOf(actor: Actor): readonly string[] | null {
  if (actor.domainId) return [actor.domainId];
  return actor.domainIds?.length ? actor.domainIds : null;
}

/** Whether the caller is limited to some domains (one or several), not the whole account. */
export function isDomainLimited(actor: Actor): boolean {
  return !!actor.domainId || !!actor.domainIds?.length;
}

/** Whether the caller may reach `domainId`: not limited, or limited to it among others (assertDomainAccess's test). */
export function mayReach(actor: Actor, domainId: string): boolean {
  const limited = domainsOf(actor);
  return !limited || limited.includes(domainId);
}

/** Whether the caller may use template `templateId`: not limited to some templates, or limited to it among others. */
export function mayUseTemplate(actor: Actor, templateId: string): boolean {
  return !actor.templateIds?.length || actor.templateIds.includes(templateId);
}

/** 403 when a domain-limited caller reaches for another domain. */
export function assertDomainAccess(actor: Actor, domainId: string): void {
  if (mayReach(actor, domainId)) return;
  throw errors.forbidden(actor.domainId ? 'This token is limited to another domain.' : 'This user is limited to other domains.');
}

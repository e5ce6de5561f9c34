import { errors } from './errors.js';
import type { Plan } from '../modules/accounts/plans.js';

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
  /** The token's name, for the audit log; absent for callers that are no API token (SMTP relay, bulk jobs). */
  tokenName?: string;
  /** The client's address, for the audit log, when the entry point knows it. */
  ip?: string | null;
  /** The account's plan, when the entry point read it (API tokens): it sets the rate limits. */
  plan?: Plan;
}

/** 403 when a domain-limited caller reaches for another domain. */
export function assertDomainAccess(actor: Actor, domainId: string): void {
  if (actor.domainId && actor.domainId !== domainId) {
    throw errors.forbidden('This token is limited to another domain.');
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../services.js';
import { errors } from './errors.js';
import type { Plan } from '../modules/accounts/plans.js';

/** Who is calling: an account's API token. */
export interface Auth {
  accountId: string;
  tokenId: string;
  scopes: ReadonlySet<string>;
  /** Set when the token is limited to one domain. */
  domainId: string | null;
  /** The token's name, for the audit log; absent for callers that are no API token (SMTP relay, bulk jobs). */
  tokenName?: string;
  /** The client's address, for the audit log, when the entry point knows it. */
  ip?: string | null;
  /** The account's plan, when the entry point read it (API tokens): it sets the rate limits. */
  plan?: Plan;
}

export interface Ctx {
  em: EntityManager;
  auth: Auth | null;
  operator: boolean;
  requestId: string;
  services: AppServices;
  /** Absolute base of this service, for links (`http://host:port`). */
  baseUrl: string;
  /** The `Idempotency-Key` request header, on either surface. */
  idempotencyKey?: string | null;
}

/** Resolvers call services with the caller first; `@Authorized` has already checked the scope. */
export function caller(ctx: Ctx): Auth {
  if (!ctx.auth) throw errors.unauthenticated();
  return ctx.auth;
}

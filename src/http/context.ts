import type { IncomingHttpHeaders } from 'node:http';
import { authenticate } from '../modules/tokens/token.auth.js';
import type { Ctx } from '../graphql/context.js';
import { asUnavailable } from '../graphql/unavailable.js';
import type { AppServices } from '../core/services.js';
import { meterRequest } from './ratelimit.js';
import { errors } from '../core/errors.js';
import { csrfRefusal, sessionCookieOf } from '../modules/users/csrf.js';
import { SessionService } from '../modules/users/session.service.js';

/** Where a request's rate and quota headers go, and whether it uses up the daily quota. */
export interface Metering {
  countQuota: boolean;
  setHeaders(headers: Record<string, string>): void;
}

/**
 * Builds the per-request context (a forked entity manager and the caller) from HTTP headers.
 * With `metering`, an account token's request is also counted, and refused (429) over a limit;
 * the operator and anonymous callers are not metered. A token seen in the last seconds and a
 * request counted in memory (services.meter) cost no statement here.
 */
export async function contextFromHeaders(
  services: AppServices,
  headers: IncomingHttpHeaders,
  requestId: string,
  baseUrl: string,
  metering?: Metering,
  /** The client's address (fastify's req.ip, which honours TRUST_PROXY): the audit log records it. */
  ip?: string,
): Promise<Ctx> {
  const em = services.orm.em.fork() as Ctx['em'];
  let cred: Awaited<ReturnType<typeof authenticate>>;
  try {
    cred = await authenticate(em, headers.authorization, services.config.OPERATOR_TOKEN, services.tokenCache);
  } catch (err) {
    throw asUnavailable(err);
  }
  if (cred.kind === 'invalid') throw errors.unauthenticated();
  // No bearer token: a console session cookie may stand in for one (bearer requests never read it).
  const cookie = cred.kind === 'none' ? sessionCookieOf(headers) : null;
  if (cookie) {
    const session = await sessionAuth(services, em, cookie, headers, ip);
    return { em, auth: session, operator: false, requestId, services, baseUrl, idempotencyKey: idempotencyKeyOf(headers) };
  }
  if (metering && cred.kind === 'token') {
    const { headers: limitHeaders, refusal } = await meterRequest(services, cred.auth, metering.countQuota);
    metering.setHeaders(limitHeaders);
    if (refusal) throw refusal;
  }
  return {
    em,
    auth: cred.kind === 'token' ? { ...cred.auth, ip: ip ?? null } : null,
    operator: cred.kind === 'operator',
    requestId,
    services,
    baseUrl,
    idempotencyKey: idempotencyKeyOf(headers),
  };
}

const idempotencyKeyOf = (headers: IncomingHttpHeaders) => (typeof headers['idempotency-key'] === 'string' ? headers['idempotency-key'] : null);

/**
 * The caller a session cookie authenticates. A dead session is 401 like a bad token; a request
 * of any method that fails the CSRF rule is 403 (modules/users/csrf.ts); a user whose password is overdue for
 * its periodic change is 403 everywhere but /auth/* until they change it. Session users are not
 * metered: the API rate limits and daily quota count API tokens (the counters are per token).
 */
async function sessionAuth(services: AppServices, em: Ctx['em'], cookie: string, headers: IncomingHttpHeaders, ip: string | undefined) {
  let session: Awaited<ReturnType<SessionService['resolve']>>;
  try {
    session = await new SessionService(em, services.config).resolve(cookie, ip ?? null);
  } catch (err) {
    throw asUnavailable(err);
  }
  if (!session) throw errors.unauthenticated();
  const refusal = csrfRefusal(headers, session.csrfToken, services.config.PUBLIC_URL);
  if (refusal) throw errors.forbidden(refusal);
  if (session.passwordChangeRequired) throw errors.forbidden(PASSWORD_CHANGE_REQUIRED);
  return session.actor;
}

export const PASSWORD_CHANGE_REQUIRED = 'Your password is due for its periodic change: change it (POST /auth/password) first.';

/** The base URL links are built on: PUBLIC_URL, or the request's own host. */
export function baseUrlOf(services: AppServices, host: string | undefined, protocol: string): string {
  return services.config.PUBLIC_URL ?? `${protocol}://${host ?? 'localhost'}`;
}

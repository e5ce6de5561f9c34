import type { IncomingHttpHeaders } from 'node:http';
import { authenticate } from '../graphql/auth.js';
import type { Ctx } from '../graphql/context.js';
import { asUnavailable } from '../graphql/unavailable.js';
import type { AppServices } from '../services.js';
import { meterRequest } from './ratelimit.js';
import { errors } from '../core/errors.js';

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
    idempotencyKey: typeof headers['idempotency-key'] === 'string' ? headers['idempotency-key'] : null,
  };
}

/** The base URL links are built on: PUBLIC_URL, or the request's own host. */
export function baseUrlOf(services: AppServices, host: string | undefined, protocol: string): string {
  return services.config.PUBLIC_URL ?? `${protocol}://${host ?? 'localhost'}`;
}

import type { IncomingHttpHeaders } from 'node:http';
import { authenticate } from '../graphql/auth.js';
import type { Ctx } from '../graphql/context.js';
import { errors } from '../graphql/errors.js';
import type { AppServices } from '../services.js';

/** Builds the per-request context (a forked entity manager and the caller) from HTTP headers. */
export async function contextFromHeaders(
  services: AppServices,
  headers: IncomingHttpHeaders,
  requestId: string,
  baseUrl: string,
): Promise<Ctx> {
  const em = services.orm.em.fork() as Ctx['em'];
  const cred = await authenticate(em, headers.authorization, services.config.OPERATOR_TOKEN);
  if (cred.kind === 'invalid') throw errors.unauthenticated();
  return {
    em,
    auth: cred.kind === 'token' ? cred.auth : null,
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

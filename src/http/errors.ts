import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { appErrorOf, extensionsOf } from '../graphql/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { errors, type AppError } from '../core/errors.js';
import type { Metrics } from './metrics.js';
import { BODY_TOO_LARGE, bodyTooLargeMessage } from './body-limits.js';
import { ANONYMOUS_BODY_TOO_LARGE } from './body-gate.js';
import { JsonBodyRefusal } from './json-body.js';

/** Errors GraphQL itself raises (syntax, unknown field, bad variable) are the caller's; the rest are ours. */
export function isUnexpected(error: unknown): boolean {
  if (appErrorOf(error)) return false;
  const ext = (error as { extensions?: { code?: unknown; http?: { status?: unknown } } })?.extensions;
  // A refusal the GraphQL servers made themselves (a bad persisted query, say) carries a 4xx.
  if (typeof ext?.http?.status === 'number' && ext.http.status < 500) return false;
  return !ext?.code || ext.code === 'INTERNAL_SERVER_ERROR';
}

/**
 * A request refused before its handler ran (a bad credential, a body past a limit or not JSON),
 * in its surface's shape, as the handler answers the same error: GraphQL's error list on
 * /graphql and /graphql/stream, `{message}` (with `errors` on a 422) on /v1 and the rest.
 */
export function refuseInShape(req: FastifyRequest, reply: FastifyReply, refused: AppError): FastifyReply {
  if (refused.retryAfter !== undefined) reply.header('retry-after', String(refused.retryAfter));
  reply.status(refused.status);
  const route = req.routeOptions.url;
  if (route !== '/graphql' && route !== '/graphql/stream') {
    return reply.send(refused.fields ? { message: refused.message, errors: refused.fields } : { message: refused.message });
  }
  // Apollo's formatError keeps the status in the extensions; yoga answers with it and drops it.
  const { http: _status, ...extensions } = extensionsOf(refused);
  return reply.send({ errors: [{ message: refused.message, extensions: route === '/graphql' ? extensionsOf(refused) : extensions }] });
}

export const unauthenticated = (req: FastifyRequest, reply: FastifyReply) => refuseInShape(req, reply, errors.unauthenticated());

type HandledError = { statusCode?: number; message: string; code?: string };

/** Body errors answer in their route's shape: GraphQL's on /graphql, the documented `{message}` on /v1. */
export function httpErrorHandler(config: Pick<Config, 'DEFAULT_BODY_BYTES'>, metrics: Metrics) {
  return (err: HandledError, req: FastifyRequest, reply: FastifyReply) => {
    if (err.code === ANONYMOUS_BODY_TOO_LARGE) return unauthenticated(req, reply);
    if (err instanceof JsonBodyRefusal) return refuseInShape(req, reply, err.refused);
    if (err.code === BODY_TOO_LARGE) {
      return refuseInShape(req, reply, errors.payloadTooLarge(bodyTooLargeMessage(req.routeOptions.bodyLimit ?? config.DEFAULT_BODY_BYTES)));
    }
    if (isDatabaseUnavailable(err)) {
      const refused = errors.unavailable();
      return reply.status(503).header('retry-after', String(refused.retryAfter)).send({ message: refused.message });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      metrics.unexpectedErrors.inc();
      req.log.error({ err }, 'unexpected error');
      return reply.status(500).send({ message: 'Server Error' });
    }
    const message = /JSON/i.test(err.message) ? 'The request body is not valid JSON.' : err.message;
    return reply.status(status).send({ message });
  };
}

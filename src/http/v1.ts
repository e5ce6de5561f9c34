import type { FastifyReply, FastifyRequest } from 'fastify';
import qs from 'qs';
import type { Ctx } from '../graphql/context.js';
import { checkRoles, rootFieldRoles } from '../graphql/auth.js';
import { isAppError } from '../core/errors.js';
import { createRestSurface, errorAnswer } from '../../rest-mapping/adapter.js';
import { buildOpenApi } from '../../rest-mapping/openapi.js';
import { baseUrlOf } from './context.js';
import { UNCOUNTED_FIELDS } from './ratelimit.js';
import type { Mount } from './mount.js';

/** /v1: sofa-api through rest-mapping, one wildcard route dispatched by the route table. */
export function mountV1({ app, services, schema, rest: contract, bodies, gated, ctxFor, meterInto, v1Templates }: Mount): void {
  const { log } = services;
  const rest = createRestSurface(schema, contract, log);
  // Made at the first request for it: sofa's OpenAPI generation is a large part of a start.
  let openapi: ReturnType<typeof buildOpenApi> | undefined;
  app.get('/v1/openapi.json', async () => (openapi ??= buildOpenApi(rest.routes, contract)));
  const v1 = async (req: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(req.url, baseUrlOf(services, req.headers.host, req.protocol));
    const matched = rest.match(req.method, url.pathname);
    if (!matched) return reply.status(404).send({ message: 'Resource not found.' });
    v1Templates.set(req, matched.route.template);
    let ctx: Ctx;
    try {
      ctx = await ctxFor(req, meterInto(reply, !UNCOUNTED_FIELDS.has(matched.route.field.name)));
    } catch (err) {
      // A bad credential (401) or a limit (429); a database that cannot be asked is the service's fault.
      if (isAppError(err)) {
        const refused = errorAnswer([err], log, req.id);
        return reply.status(refused.status).headers(refused.headers ?? {}).send(refused.body);
      }
      throw err;
    }
    // The same resolvers serve both surfaces; what they count (postbox_sends_accepted_total) says which.
    ctx.surface = 'rest';
    // The operator token is for the GraphQL operator API only.
    if (!ctx.auth) return reply.status(401).send({ message: 'Unauthenticated.' });
    const roles = rootFieldRoles(matched.route.field.name);
    if (roles) {
      try {
        checkRoles(ctx, roles);
      } catch (err) {
        const refused = errorAnswer([err], log, req.id);
        return reply.status(refused.status).send(refused.body);
      }
    }
    const arrayBody = matched.route.spec.arrayBody;
    const body = arrayBody && Array.isArray(req.body) ? { [arrayBody]: req.body } : (req.body ?? {});
    if (typeof body !== 'object' || Array.isArray(body)) {
      return reply.status(400).send({ message: 'The request body must be a JSON object.' });
    }
    const query = qs.parse(url.search.slice(1), { depth: 3, arrayLimit: 100 }) as Record<string, unknown>;
    const answer = await rest.handle(matched, { url, query, body: body as Record<string, unknown>, ctx });
    if (answer.headers) reply.headers(answer.headers);
    if (answer.status === 204) return reply.status(204).removeHeader('content-type').send();
    return reply.status(answer.status).send(answer.body);
  };
  app.route({ url: '/v1/*', method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], ...gated, handler: v1 });
  // The same handler where bodies carry files, with a bigger body limit.
  for (const route of bodies.v1) app.route({ ...route, ...gated, handler: v1 });
}

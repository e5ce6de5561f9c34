import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApolloServer } from '@apollo/server';
import * as disabled from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError } from 'graphql';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { createGraphQLError, createYoga } from 'graphql-yoga';
import type { GraphQLSchema } from 'graphql';
import qs from 'qs';
import type { AppServices } from '../services.js';
import type { Ctx } from '../graphql/context.js';
import { appErrorOf, asGraphQLError, extensionsOf, toGraphQLError } from '../graphql/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { checkRoles, rootFieldRoles } from '../graphql/auth.js';
import { createRestSurface, errorAnswer } from '../../rest-mapping/adapter.js';
import { routeTable } from '../../rest-mapping/index.js';
import { buildOpenApi } from '../../rest-mapping/openapi.js';
import { baseUrlOf, contextFromHeaders, type Metering } from './context.js';
import { rateLimitPlugin, UNCOUNTED_FIELDS } from './ratelimit.js';
import { createMetrics, registerMetricsRoute, type Metrics } from './metrics.js';
import { registerPlainRoutes } from './plain-routes.js';
import { registerConsole } from './console.js';
import { BODY_TOO_LARGE, bodyTooLargeMessage, largeBodyRoutes } from './body-limits.js';
import { apolloGuard, yogaGuard } from './graphql-guard.js';
import { StreamGuard } from './stream-guard.js';
import { limitsFromConfig, withoutSuggestion, type GraphQLLimits } from '../graphql/limits.js';
import { ANONYMOUS_BODY_TOO_LARGE, credentialGate, type BodyGate } from './body-gate.js';
import { graphiqlHook } from './graphiql.js';
import { errors, isAppError, type AppError } from '../core/errors.js';
import { jsonBodyParser, JsonBodyRefusal } from './json-body.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Link tokens (confirmation, invitation) act as credentials: they never reach the logs. */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|access_token|signature)=)[^&#]*/gi, '$1[redacted]')
    // Tracking links are credentials too: an unsubscribe token unsubscribes.
    .replace(/^(\/t\/[ocu]\/)[^?#]*/, '$1[redacted]');
}

/** Errors GraphQL itself raises (syntax, unknown field, bad variable) are the caller's; the rest are ours. */
function isUnexpected(error: unknown): boolean {
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
function refuseInShape(req: FastifyRequest, reply: FastifyReply, refused: AppError): FastifyReply {
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

const unauthenticated = (req: FastifyRequest, reply: FastifyReply) => refuseInShape(req, reply, errors.unauthenticated());

/** What the surfaces mounted below share: the app, the services, and how a request becomes a context. */
interface Mount {
  app: FastifyInstance;
  services: AppServices;
  schema: GraphQLSchema;
  metrics: Metrics;
  limits: GraphQLLimits;
  bodies: ReturnType<typeof largeBodyRoutes>;
  /** The hooks of a route that needs a login: it reads a body only from a caller who may send it (body-gate.ts). */
  gated: { onRequest: BodyGate['onRequest']; preParsing: BodyGate['preParsing'] };
  ctxFor: (req: FastifyRequest, metering?: Metering) => Promise<Ctx>;
  meterInto: (reply: FastifyReply, countQuota?: boolean) => Metering;
  /** /v1 is one wildcard route to fastify: its requests are labelled by the matched route's template. */
  v1Templates: WeakMap<FastifyRequest, string>;
}

/** fastify with this service's logger, body parsing, error shapes and request ids. */
function createFastify(services: AppServices, metrics: Metrics): FastifyInstance {
  const { log, config } = services;
  const app = Fastify({
    loggerInstance: log.child(
      {},
      {
        serializers: {
          req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
            method: req.method,
            url: redactUrl(req.url),
            host: req.hostname,
            remoteAddress: req.ip,
          }),
        },
      },
    ) as unknown as import('fastify').FastifyBaseLogger,
    // Routes that take files raise their own limit (body-limits.ts).
    bodyLimit: config.DEFAULT_BODY_BYTES,
    // Behind a reverse proxy, client addresses (tracking's country) come from X-Forwarded-For.
    trustProxy: services.config.TRUST_PROXY as boolean | string,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });

  // Large bodies are parsed off the event loop, every body within limits of its shape (json-body.ts).
  const json = jsonBodyParser(config);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => json.parse(req, body as Buffer, done));
  app.addHook('onClose', async () => json.close());

  // Body errors answer in their route's shape: GraphQL's on /graphql, the documented `{message}` on /v1.
  app.setErrorHandler((err: { statusCode?: number; message: string; code?: string }, req, reply) => {
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
  });
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ message: 'Resource not found.' }));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  return app;
}

/** Apollo Server 5 on the schema, with the guards of graphql-guard.ts and the error catalogue's shapes. */
function apolloServer({ services, schema, metrics, limits }: Mount): ApolloServer<Ctx> {
  const { log, config } = services;
  const guard = apolloGuard<Ctx>(limits);
  return new ApolloServer<Ctx>({
    schema,
    ...guard.options,
    includeStacktraceInErrorResponses: false,
    // main.ts owns shutdown; Apollo's own handler would re-raise the signal and skip ours.
    stopOnTerminationSignals: false,
    plugins: [
      // Apollo requests are metered once their operation is known, not in the context.
      rateLimitPlugin(config, log),
      {
        // Logged here rather than in formatError, which has no request context.
        async requestDidStart() {
          return {
            async didEncounterErrors({ errors, contextValue }) {
              for (const error of errors) {
                if (isUnexpected(error)) {
                  metrics.unexpectedErrors.inc();
                  log.error({ err: (error as { originalError?: unknown }).originalError ?? error, reqId: contextValue?.requestId }, 'unexpected GraphQL error');
                }
              }
            },
          };
        },
      },
      ...guard.plugins,
      // Its landing page loads Sandbox from a CDN; browsers get the offline GraphiQL instead (graphiql.ts).
      disabled.ApolloServerPluginLandingPageDisabled(),
      // Installed by default, they hook every field's resolution (cache hints, traces) for a header
      // and a report this API never uses: a list of 25 rows paid it per field (half its req/s).
      disabled.ApolloServerPluginCacheControlDisabled(),
      disabled.ApolloServerPluginInlineTraceDisabled(),
      disabled.ApolloServerPluginUsageReportingDisabled(),
    ],
    formatError: (formatted: GraphQLFormattedError, error: unknown) => {
      // Converted where it was thrown (schema middleware, auth checker, context); one that was not
      // still answers in the catalogue's shape.
      const err = appErrorOf(error);
      if (err) return { ...formatted, message: err.message, extensions: { ...formatted.extensions, ...extensionsOf(err) } };
      // A variable's unknown field or enum value: execution's own "Did you mean", which validation's switch misses.
      if (!isUnexpected(error)) return limits.suggestions ? formatted : { ...formatted, message: withoutSuggestion(formatted.message) };
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    },
  });
}

/** /graphql: the offline IDE for a browser's GET, Apollo for everything else. */
async function mountGraphQL(m: Mount): Promise<void> {
  const { app, limits, bodies, gated, ctxFor } = m;
  const apollo = apolloServer(m);
  await apollo.start();
  // Fastify's close drains connections; Apollo stops with it (its drain plugin would call close again).
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    bodyLimit: bodies.graphql,
    // A browser's GET gets the IDE; every other request goes on to Apollo.
    onRequest: [gated.onRequest, graphiqlHook({ introspection: limits.introspection !== 'off' })],
    preParsing: gated.preParsing,
    handler: fastifyApolloHandler(apollo, {
      context: async (req) => {
        try {
          return await ctxFor(req);
        } catch (err) {
          throw asGraphQLError(err);
        }
      },
    }),
  });
}

/** /graphql/stream: subscriptions over SSE (graphql-yoga), on the same schema. */
function mountStream({ app, services, schema, limits, gated, ctxFor, meterInto }: Mount): void {
  const { log, config } = services;
  const streams = new StreamGuard(services.orm, services.pubsub, log, config);
  app.addHook('onClose', async () => streams.stop());
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }>({
    schema,
    graphqlEndpoint: '/graphql/stream',
    logging: false,
    graphiql: false,
    plugins: yogaGuard(limits),
    maskedErrors: {
      errorMessage: 'Internal server error',
      maskError: (error, message) => {
        const err = appErrorOf(error);
        if (err) return (error as { extensions?: { http?: unknown } }).extensions?.http ? (error as Error) : toGraphQLError(err);
        // GraphQL's own refusals (parse, validation, the guards) are the caller's: as they are.
        if (!isUnexpected(error)) return error as Error;
        log.error({ err: error }, 'unexpected GraphQL stream error');
        // The same answer as Apollo's formatError gives on /graphql.
        return createGraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    // A subscription is metered once, when it connects, and ends when its token changes.
    context: async ({ req, reply }) => {
      try {
        const ctx = await ctxFor(req, meterInto(reply));
        if (ctx.auth) streams.watch(ctx.auth, reply.raw);
        return ctx;
      } catch (err) {
        throw asGraphQLError(err);
      }
    },
  });
  app.route({
    url: '/graphql/stream',
    method: ['GET', 'POST', 'OPTIONS'],
    ...gated,
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => reply.header(key, value));
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });
}

/** /v1: sofa-api through rest-mapping, one wildcard route dispatched by the route table. */
function mountV1({ app, services, schema, bodies, gated, ctxFor, meterInto, v1Templates }: Mount): void {
  const { log } = services;
  const rest = createRestSurface(schema, routeTable, log);
  const openapi = buildOpenApi(rest.routes, schema);
  app.get('/v1/openapi.json', async () => openapi);
  const v1 = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
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

export async function createHttpServer(services: AppServices, schema: GraphQLSchema): Promise<FastifyInstance> {
  const { config } = services;
  const metrics = createMetrics();
  const app = createFastify(services, metrics);
  const v1Templates = new WeakMap<FastifyRequest, string>();
  // /v1 is one wildcard route to fastify: its requests are labelled by the matched route's template.
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpDuration
      .labels(req.method, v1Templates.get(req) ?? req.routeOptions.url ?? 'unmatched', String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });
  // A route that needs a login reads a body only from a caller who may send it (body-gate.ts).
  const gate = credentialGate(services, (req, reply) => unauthenticated(req, reply));

  const ctxFor = (req: FastifyRequest, metering?: Metering) =>
    contextFromHeaders(services, req.headers, req.id, baseUrlOf(services, req.headers.host, req.protocol), metering, req.ip);
  const meterInto = (reply: FastifyReply, countQuota = true): Metering => ({ countQuota, setHeaders: (h) => void reply.headers(h) });

  const mount: Mount = {
    app,
    services,
    schema,
    metrics,
    limits: limitsFromConfig(config),
    bodies: largeBodyRoutes(config),
    gated: { onRequest: gate.onRequest, preParsing: gate.preParsing },
    ctxFor,
    meterInto,
    v1Templates,
  };
  await mountGraphQL(mount);
  mountStream(mount);
  mountV1(mount);

  // --- plain routes: health, metrics, confirmation links ---
  app.get('/health', async (_req, reply) => {
    try {
      await services.orm.em.getConnection().execute('select 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  registerMetricsRoute(app, config);
  registerPlainRoutes(app, services);
  // The console SPA at / and /assets/* (console/dist).
  registerConsole(app);

  return app;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { AppServices } from '../core/services.js';
import type { RestContract } from '../../rest-mapping/types.js';
import { pingDatabase } from '../db/health.js';
import { limitsFromConfig } from '../graphql/limits.js';
import { baseUrlOf, contextFromHeaders, type Metering } from './context.js';
import { createMetrics, registerMetricsRoute } from './metrics.js';
import path from 'node:path';
import { CONSOLE_DIST, registerConsole } from './console.js';
import { largeBodyRoutes } from './body-limits.js';
import { credentialGate } from './body-gate.js';
import { unauthenticated } from './errors.js';
import { createFastify } from './fastify.js';
import { mountGraphQL } from './graphql.js';
import { mountStream } from './graphql-stream.js';
import { mountV1 } from './v1.js';
import type { Mount } from './mount.js';

/**
 * What the composition root hands the HTTP server besides the schema: the /v1 contract and the
 * routes modules serve outside GraphQL and /v1 (confirmation links, tracking, provider callbacks).
 */
export interface HttpSurfaces {
  rest: RestContract;
  plainRoutes: readonly ((app: FastifyInstance, services: AppServices) => void)[];
}

/** Health, metrics, the modules' own routes (confirmation links, tracking, callbacks) and the console. */
function mountPlainRoutes(app: FastifyInstance, services: AppServices, surfaces: HttpSurfaces): void {
  app.get('/health', async (_req, reply) => {
    try {
      await pingDatabase(services.orm.em);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  registerMetricsRoute(app, services.config);
  for (const routes of surfaces.plainRoutes) routes(app, services);
  // The console SPA at / and /assets/* (console/dist).
  registerConsole(app);
}

export async function createHttpServer(services: AppServices, schema: GraphQLSchema, surfaces: HttpSurfaces): Promise<FastifyInstance> {
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
    rest: surfaces.rest,
    metrics,
    limits: limitsFromConfig(config, path.join(CONSOLE_DIST, 'persisted-documents.json')),
    bodies: largeBodyRoutes(config),
    gated: { onRequest: gate.onRequest, preParsing: gate.preParsing },
    ctxFor,
    meterInto,
    v1Templates,
  };
  await mountGraphQL(mount);
  mountStream(mount);
  mountV1(mount);
  mountPlainRoutes(app, services, surfaces);
  return app;
}

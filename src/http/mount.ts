import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { AppServices } from '../core/services.js';
import type { Ctx } from '../graphql/context.js';
import type { GraphQLLimits } from '../graphql/limits.js';
import type { RestContract } from '../../rest-mapping/types.js';
import type { Metering } from './context.js';
import type { Metrics } from './metrics.js';
import type { largeBodyRoutes } from './body-limits.js';
import type { BodyGate } from './body-gate.js';

/** What the surfaces mounted on the server share: the app, the services, and how a request becomes a context. */
export interface Mount {
  app: FastifyInstance;
  services: AppServices;
  schema: GraphQLSchema;
  /** The /v1 contract (rest-mapping). */
  rest: RestContract;
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

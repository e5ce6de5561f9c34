import type { FastifyInstance } from 'fastify';
import type { RestResource } from '../../rest-mapping/types.js';
import type { AppServices } from '../core/services.js';

/** Routes a module serves outside GraphQL and /v1, registered on the HTTP server. */
export type PlainRoutes = (app: FastifyInstance, services: AppServices) => void;

/**
 * What a module brings to the api role, in its folder's index.ts: resolvers for the schema,
 * plain HTTP routes, the /v1 tables. The api gathers every module from the one list in
 * modules/index.ts; every role's tables, jobs and workers are listed in tables.ts, jobs.ts and
 * workers.ts beside it, so a role that serves no API loads no resolver.
 */
export interface ModuleManifest {
  name: string;
  /** type-graphql resolver classes. */
  resolvers?: readonly Function[];
  /** Routes outside GraphQL and /v1 (links opened from mail, provider callbacks). */
  routes?: PlainRoutes;
  /** Its /v1 resources, in the order the OpenAPI document lists them. */
  rest?: readonly RestResource[];
  /** GraphQL fields (`Type.field`) /v1 leaves out of its answers, so they keep SPEC.md's shapes. */
  hiddenOnRest?: readonly string[];
}

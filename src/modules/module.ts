import type { EntityClass } from '@mikro-orm/core';
import type { FastifyInstance } from 'fastify';
import type { RestResource } from '../../rest-mapping/types.js';
import type { JobDefinition, RegisteredWorker } from '../jobs/job.js';
import type { AppServices } from '../core/services.js';

/** Routes a module serves outside GraphQL and /v1, registered on the HTTP server. */
export type PlainRoutes = (app: FastifyInstance, services: AppServices) => void;

/**
 * What a module brings to the app, in its folder's index.ts. The app assembles every module from
 * the one list in modules/index.ts (entities for the ORM, resolvers for the schema, job
 * definitions and workers, plain HTTP routes, the /v1 tables): adding a resource touches its
 * folder and that list, nothing else.
 */
export interface ModuleManifest {
  name: string;
  entities?: readonly EntityClass<object>[];
  /** type-graphql resolver classes. */
  resolvers?: readonly Function[];
  /** Job definitions: every role makes their queues, so every role may enqueue them. */
  jobs?: readonly JobDefinition[];
  /** Their handlers, started by the worker role only. */
  workers?: readonly RegisteredWorker<AppServices>[];
  /** Routes outside GraphQL and /v1 (links opened from mail, provider callbacks). */
  routes?: PlainRoutes;
  /** Its /v1 resources, in the order the OpenAPI document lists them. */
  rest?: readonly RestResource[];
  /** GraphQL fields (`Type.field`) /v1 leaves out of its answers, so they keep SPEC.md's shapes. */
  hiddenOnRest?: readonly string[];
}

import type { EntityClass } from '@mikro-orm/core';
import type { RegisteredWorker } from '../jobs/job.js';
import type { AppServices } from '../core/services.js';
import type { PlainRoutes } from '../modules/module.js';

/**
 * What an engine brings to the app, in its folder's index.ts: the workers of the jobs it runs
 * (their definitions belong to the modules that enqueue them), the tables of its own machinery
 * (leases), and routes outside GraphQL and /v1. An engine has no resolvers and no /v1 table: the
 * resources people read and change are modules'. The composition root gathers every engine from
 * the one list in engines/index.ts.
 */
export interface EngineManifest {
  name: string;
  entities?: readonly EntityClass<object>[];
  workers?: readonly RegisteredWorker<AppServices>[];
  routes?: PlainRoutes;
}

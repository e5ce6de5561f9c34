import type { Entities } from './db/orm.js';
import type { JobDefinition, RegisteredWorker } from './jobs/job.js';
import type { AppServices } from './core/services.js';
import type { PlainRoutes } from './modules/module.js';
import { modules, rest, resolvers } from './modules/index.js';
import { engines } from './engines/index.js';

/**
 * The lists the composition root hands down, gathered from every module's and every engine's
 * manifest: a layer below never reaches up for them.
 */
const manifests = [...modules, ...engines];

/** Every entity the ORM maps, handed to createOrm. */
export const entities: Entities = manifests.flatMap((m) => m.entities ?? []);

/**
 * Every job's definition, handed to createBoss, which makes their queues in every process, so any
 * role can enqueue. Producers import a definition, never this list.
 */
export const jobs: readonly JobDefinition[] = modules.flatMap((m) => m.jobs ?? []);

/** The handler of every job, handed to the worker role only. */
export const workers: readonly RegisteredWorker<AppServices>[] = manifests.flatMap((m) => m.workers ?? []);

/** Routes outside GraphQL and /v1 (links opened from mail, provider callbacks), handed to the HTTP server. */
export const plainRoutes: readonly PlainRoutes[] = manifests.flatMap((m) => (m.routes ? [m.routes] : []));

export { resolvers, rest };

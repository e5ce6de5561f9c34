import { modules } from '../modules/index.js';
import type { JobDefinition, RegisteredWorker } from './job.js';

/**
 * Every job's definition, from the modules' manifests: the app hands them to `createBoss`, which
 * makes their queues in every process, so any role can enqueue. Producers import a definition,
 * never this list (it reaches every module).
 */
export const jobs: readonly JobDefinition[] = modules.flatMap((m) => m.jobs ?? []);

/** The handler of every job: only what starts workers imports this. */
export const workers: readonly RegisteredWorker[] = modules.flatMap((m) => m.workers ?? []);

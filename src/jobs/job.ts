import type { Config } from '../config/index.js';
import type { AppServices } from '../services.js';

/** Which attempt this is; `retryCount === retryLimit` is the last one pg-boss will make. */
export interface JobAttempt {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/**
 * A job is one file: its name, payload type, retry/backoff options and `perform()`.
 * Cron jobs add a schedule.
 */
export interface JobDef<T extends object = object> {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /** pg-boss cron expression (UTC). */
  cron?: (services: AppServices) => string;
  /** How many jobs one fetch takes; with `burstWhenBatchFull` this lifts the polling ceiling. */
  batchSize?: number;
  /** Also run once as soon as a worker starts, not only at the first cron time (a self-rescheduling job). */
  kickOnStart?: boolean;
  /** Workers of this queue per process (pg-boss `localConcurrency`), each fetching its own batches. */
  concurrency?: (config: Config) => number;
  /** Queue options that depend on settings; they win over the fixed ones above. */
  queue?: (config: Config) => { retryLimit?: number; retryDelay?: number; heartbeatSeconds?: number; expireInSeconds?: number };
  perform(data: T, services: AppServices, attempt: JobAttempt): Promise<void>;
}

export function defineJob<T extends object>(def: JobDef<T>): JobDef<T> {
  return def;
}

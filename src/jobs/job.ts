import type { AppServices } from '../services.js';

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
  perform(data: T, services: AppServices): Promise<void>;
}

export function defineJob<T extends object>(def: JobDef<T>): JobDef<T> {
  return def;
}

import type { z } from 'zod';
import type { Config } from '../config/index.js';

/** Which attempt this is; `retryCount === retryLimit` is the last one pg-boss will make. */
export interface JobAttempt {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/** Queue options that depend on settings. */
export interface QueueSettings {
  retryLimit?: number;
  retryDelay?: number;
  heartbeatSeconds?: number;
  expireInSeconds?: number;
}

/**
 * A job's definition: its queue name, the schema of its data, and its queue options. It lives in
 * `<name>.job.ts`, a file that imports no service, so a producer that enqueues the job does not
 * load the code that works it (that is the worker, `<name>.worker.ts`). Cron jobs add a schedule.
 */
export interface JobDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  /** The data as queued (JSON): checked when enqueued, and again by the worker before it runs. */
  readonly schema: S;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /** pg-boss cron expression (UTC). A cron job is queued with `{}`: its schema must accept that. */
  cron?: (config: Config) => string;
  /** How many jobs one fetch takes; with `burstWhenBatchFull` this lifts the polling ceiling. */
  batchSize?: number | ((config: Config) => number);
  /** Also run once as soon as a worker starts, not only at the first cron time (a self-rescheduling job). */
  kickOnStart?: boolean;
  /** Workers of this queue per process (pg-boss `localConcurrency`), each fetching its own batches. */
  concurrency?: (config: Config) => number;
  /** Queue options that depend on settings; they win over the fixed ones above. */
  queue?: (config: Config) => QueueSettings;
}

/** The data a job's handler receives. */
export type JobData<J extends JobDefinition> = z.output<J['schema']>;

export function defineJob<S extends z.ZodObject>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/**
 * What the worker registry needs of a worker, whatever the data of its job. `D` is what the
 * worker declares it needs (a part of the service container, say); the worker role hands it the
 * container (jobs/workers.ts), which holds it all.
 */
export interface RegisteredWorker<D = never> {
  readonly job: JobDefinition;
  /** Parses the queued data with the job's schema, then performs: malformed data fails the job. */
  run(data: unknown, deps: D, attempt: JobAttempt): Promise<void>;
  /** A batch worker works a fetched batch at once; null settles that job, an error retries it. */
  runBatch?(items: { data: unknown; attempt: JobAttempt }[], deps: D): Promise<(Error | null)[]>;
  /**
   * What the worker runs beside its jobs for as long as the process works them, started with the
   * worker (the delivery engine's takeover of dead workers' batches) and stopped before pg-boss.
   */
  background?(deps: D): { stop(): Promise<void> };
}

export interface Worker<S extends z.ZodObject, D> extends RegisteredWorker<D> {
  readonly job: JobDefinition<S>;
  readonly perform: (data: z.output<S>, deps: D, attempt: JobAttempt) => Promise<void>;
}

/** Data a job's schema refuses: a producer's bug (or a job queued by an older release). */
export class MalformedJobData extends Error {
  constructor(job: string, issues: string) {
    super(`malformed data for job ${job}: ${issues}`);
    this.name = 'MalformedJobData';
  }
}

/** Binds a definition to the handler that works it, in `<name>.worker.ts`. */
export function defineWorker<S extends z.ZodObject, D>(
  job: JobDefinition<S>,
  perform: (data: z.output<S>, deps: D, attempt: JobAttempt) => Promise<void>,
): Worker<S, D> {
  return {
    job,
    perform,
    async run(data, deps, attempt) {
      const parsed = job.schema.safeParse(data);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
        throw new MalformedJobData(job.name, issues);
      }
      await perform(parsed.data, deps, attempt);
    },
  };
}

/**
 * Binds a definition to a handler that takes the whole fetched batch at once (its statements made
 * per batch, not per job), in `<name>.worker.ts`. Each job's data is checked first: a malformed
 * one fails alone.
 */
export function defineBatchWorker<S extends z.ZodObject, D>(
  job: JobDefinition<S>,
  perform: (items: { data: z.output<S>; attempt: JobAttempt }[], deps: D) => Promise<(Error | null)[]>,
): RegisteredWorker<D> {
  const runBatch = async (items: { data: unknown; attempt: JobAttempt }[], deps: D) => {
    const results: (Error | null)[] = items.map(() => null);
    const good: { data: z.output<S>; attempt: JobAttempt; at: number }[] = [];
    items.forEach((item, at) => {
      const parsed = job.schema.safeParse(item.data);
      if (parsed.success) good.push({ data: parsed.data, attempt: item.attempt, at });
      else results[at] = new MalformedJobData(job.name, parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; '));
    });
    if (good.length) (await perform(good, deps)).forEach((r, i) => (results[good[i].at] = r));
    return results;
  };
  return {
    job,
    runBatch,
    async run(data, deps, attempt) {
      const [err] = await runBatch([{ data, attempt }], deps);
      if (err) throw err;
    },
  };
}

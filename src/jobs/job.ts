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
  /** Null: no heartbeat (also for a queue that had one). */
  heartbeatSeconds?: number | null;
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

/** A worker that fetches its own jobs, as long as the process works them. */
export interface JobLoop {
  /** Jobs were just queued (the outbox relay moved some): fetch now rather than at the next poll. */
  wake(): void;
  /** Fetches no more; resolves once the jobs under way are settled. Stopped before pg-boss. */
  stop(): Promise<void>;
}

/**
 * What the worker registry needs of a worker, whatever the data of its job. `D` is what the
 * worker declares it needs (a part of the service container, say); the worker role hands it the
 * container (jobs/workers.ts), which holds it all. pg-boss's work() fetches and settles the jobs
 * of a worker with `run`; one with `fetching` does both itself (delivery claims what it fetched
 * in the fetch's own transaction: engines/delivery/delivery.loop.ts).
 */
export type RegisteredWorker<D = never> = PolledWorker<D> | FetchingWorker<D>;

/** A worker pg-boss's work() fetches for: `run` works one job; it throws to fail it. */
export interface PolledWorker<D = never> {
  readonly job: JobDefinition;
  run(data: unknown, deps: D, attempt: JobAttempt): Promise<void>;
  fetching?: never;
}

/** A worker that fetches and settles its own jobs, for as long as the process works them. */
export interface FetchingWorker<D = never> {
  readonly job: JobDefinition;
  fetching(deps: D): JobLoop;
  run?: never;
}

export interface Worker<S extends z.ZodObject, D> {
  readonly job: JobDefinition<S>;
  /** Parses the queued data with the job's schema, then performs: malformed data fails the job. */
  run(data: unknown, deps: D, attempt: JobAttempt): Promise<void>;
  readonly perform: (data: z.output<S>, deps: D, attempt: JobAttempt) => Promise<void>;
}

/** Data a job's schema refuses: a producer's bug (or a job queued by an older release). */
export class MalformedJobData extends Error {
  constructor(
    job: string,
    /** What the schema said of the data. */
    readonly issues: string,
  ) {
    super(`malformed data for job ${job}: ${issues}`);
    this.name = 'MalformedJobData';
  }
}

/** The job's data as its schema reads it; data the schema refuses throws MalformedJobData. */
export function parseJobData<S extends z.ZodObject>(job: JobDefinition<S>, data: unknown): z.output<S> {
  const parsed = job.schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
  throw new MalformedJobData(job.name, issues);
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
      await perform(parseJobData(job, data), deps, attempt);
    },
  };
}

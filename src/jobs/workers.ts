import { retryWhileUnavailable } from '../db/unavailable.js';
import type { AppServices } from '../core/services.js';
import { queueOptions } from './boss.js';
import { observeJobWait } from './loop.js';
import { MalformedJobData, type JobDefinition, type JobLoop, type PolledWorker, type RegisteredWorker } from './job.js';

/** A job with a queue and no worker would pile up unseen; one with a worker and no queue cannot start. */
function checkRegistry(jobs: readonly JobDefinition[], workers: readonly RegisteredWorker<AppServices>[]): void {
  const worked = new Set(workers.map((w) => w.job.name));
  const queued = new Set(jobs.map((j) => j.name));
  const missing = [...queued].filter((name) => !worked.has(name));
  const extra = [...worked].filter((name) => !queued.has(name));
  if (missing.length || extra.length || worked.size !== workers.length) {
    throw new Error(`job registry: no worker for [${missing.join(', ')}], no definition for [${extra.join(', ')}]`);
  }
}

/** The workers of a process: woken when jobs of their queues were queued, stopped before pg-boss. */
export interface StartedWorkers {
  wake(queues: Iterable<string>): void;
  stop(): Promise<void>;
}

/**
 * The worker role: every job the composition root hands down (src/roles/worker.ts) gets its worker,
 * and cron jobs their schedule. A worker that fetches its own jobs runs its loop instead of
 * pg-boss's work().
 */
export async function startWorkers(
  services: AppServices,
  jobs: readonly JobDefinition[],
  workers: readonly RegisteredWorker<AppServices>[],
): Promise<StartedWorkers> {
  checkRegistry(jobs, workers);
  const loops = new Map<string, JobLoop>();
  for (const worker of workers) {
    if (worker.fetching) loops.set(worker.job.name, worker.fetching(services));
    else await work(services, worker);
    await schedule(services, worker.job);
  }
  const { boss } = services;
  return {
    // pg-boss's workers poll, and one that polled while the jobs were not there yet would wait out its interval.
    wake(queues) {
      const filled = new Set(queues);
      for (const name of filled) loops.get(name)?.wake();
      for (const w of boss.getWipData()) if (filled.has(w.name)) boss.notifyWorker(w.id);
    },
    async stop() {
      await Promise.all([...loops.values()].map((l) => l.stop()));
    },
  };
}

async function work(services: AppServices, worker: PolledWorker<AppServices>): Promise<void> {
  const { boss, log } = services;
  const { job } = worker;
  /** A job's failure, logged (data its schema refused as an error: a retry cannot mend it). */
  const failed = (id: string, err: unknown) => {
    if (err instanceof MalformedJobData) log.error({ err, job: job.name, id }, 'job data refused by its schema');
    else log.warn({ err, job: job.name, id }, 'job failed');
    return { id, status: 'failed' as const, output: { message: String((err as Error)?.message ?? err) } };
  };
  await boss.work(
    job.name,
    {
      batchSize: (typeof job.batchSize === 'function' ? job.batchSize(services.config) : job.batchSize) ?? 10,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 1,
      perJobResults: true,
      includeMetadata: true,
      localConcurrency: job.concurrency?.(services.config) ?? 1,
    },
    async (batch) => {
      const { retryLimit } = queueOptions(job, services.config);
      observeJobWait(job.name, batch);
      const results = [];
      // Each job settles on its own: one failure retries that job, not the whole batch.
      for (const item of batch) {
        try {
          await worker.run(item.data, services, { id: item.id, retryCount: item.retryCount, retryLimit });
          results.push({ id: item.id, status: 'completed' as const });
        } catch (err) {
          results.push(failed(item.id, err));
        }
      }
      return results;
    },
  );
}

/**
 * A cron job's schedule, and the first run of a job kicked on start: the only statements of a
 * worker's start after the database was found (pg-boss's work() is local), so a restart of the
 * database in between would otherwise end the process.
 */
async function schedule(services: AppServices, job: JobDefinition): Promise<void> {
  const { boss } = services;
  const wait = services.config.DATABASE_WAIT_SECONDS;
  const cron = job.cron?.(services.config);
  if (cron) await retryWhileUnavailable(wait, () => boss.schedule(job.name, cron, {}, { tz: 'UTC' }));
  if (job.kickOnStart) await retryWhileUnavailable(wait, () => boss.sendThrottled(job.name, {}, {}, 2, 'start'));
}

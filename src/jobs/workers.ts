import { retryWhileUnavailable } from '../db/unavailable.js';
import type { AppServices } from '../core/services.js';
import { jobWait } from '../lib/metrics.js';
import { queueOptions } from './boss.js';
import { MalformedJobData, type JobDefinition, type RegisteredWorker } from './job.js';

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

/**
 * The worker role: every job the composition root hands down (src/roles/worker.ts) gets its worker,
 * and cron jobs their schedule. Answers what stops the workers' background work.
 */
export async function startWorkers(
  services: AppServices,
  jobs: readonly JobDefinition[],
  workers: readonly RegisteredWorker<AppServices>[],
): Promise<() => Promise<void>> {
  checkRegistry(jobs, workers);
  const background: { stop(): Promise<void> }[] = [];
  for (const worker of workers) {
    await work(services, worker);
    if (worker.background) background.push(worker.background(services));
  }
  return async () => {
    await Promise.all(background.map((b) => b.stop()));
  };
}

async function work(services: AppServices, worker: RegisteredWorker<AppServices>): Promise<void> {
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
      const now = Date.now();
      for (const item of batch) {
        const due = Math.max(new Date(item.createdOn).getTime(), new Date(item.startAfter).getTime());
        jobWait.observe({ queue: job.name }, Math.max(0, now - due) / 1000);
      }
      if (worker.runBatch) {
        // The whole batch at once (its statements per batch); each job still settles on its own.
        const outcome = await worker
          .runBatch(batch.map((item) => ({ data: item.data, attempt: { id: item.id, retryCount: item.retryCount, retryLimit } })), services)
          .catch((err: unknown) => batch.map(() => err as Error));
        return batch.map((item, i) => (outcome[i] ? failed(item.id, outcome[i]) : { id: item.id, status: 'completed' as const }));
      }
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
  // The only statements of a worker's start after the database was found (pg-boss's work() is
  // local): a restart of the database in between would otherwise end the process.
  const wait = services.config.DATABASE_WAIT_SECONDS;
  const cron = job.cron?.(services.config);
  if (cron) await retryWhileUnavailable(wait, () => boss.schedule(job.name, cron, {}, { tz: 'UTC' }));
  if (job.kickOnStart) await retryWhileUnavailable(wait, () => boss.sendThrottled(job.name, {}, {}, 2, 'start'));
}

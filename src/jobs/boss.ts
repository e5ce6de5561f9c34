import { PgBoss, fromKysely } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../services.js';
import type { Config } from '../config/index.js';
import type { JobDef } from './job.js';

export type Boss = PgBoss;

/** The options a job's queue is created with: its fixed ones, then those read from settings. */
export function queueOptions(job: JobDef<never>, config: Config) {
  return {
    retryLimit: job.retryLimit ?? 5,
    retryDelay: job.retryDelay ?? 10,
    retryBackoff: job.retryBackoff ?? true,
    expireInSeconds: job.expireInSeconds ?? 300,
    ...job.queue?.(config),
  };
}

/**
 * The job registry imports every job module, and job modules import this file (enqueue): loaded
 * when needed, it cannot meet a job module half-initialised whatever a file imports first.
 */
async function registeredJobs(): Promise<JobDef<never>[]> {
  return (await import('./registry.js')).jobs;
}

export async function createBoss(url: string, log: AppServices['log'], config: Config): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 4,
    // How soon a job of a killed worker (no heartbeat) is retried.
    superviseIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
    monitorIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  for (const job of await registeredJobs()) {
    const options = queueOptions(job, config);
    // createQueue leaves an existing queue as it is; settings may have changed since.
    if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, options);
    else await boss.createQueue(job.name, options);
  }
  return boss;
}

/** The worker role: every registered job gets a worker, and cron jobs their schedule. */
export async function startWorkers(services: AppServices): Promise<void> {
  const { boss, log } = services;
  for (const job of (await registeredJobs()) as JobDef<object>[]) {
    await boss.work(
      job.name,
      {
        batchSize: job.batchSize ?? 10,
        burstWhenBatchFull: true,
        pollingIntervalSeconds: 1,
        perJobResults: true,
        localConcurrency: job.concurrency?.(services.config) ?? 1,
      },
      async (batch) => {
        const results = [];
        // Each job settles on its own: one failure retries that job, not the whole batch.
        for (const item of batch) {
          try {
            await job.perform(item.data as object, services, {
              id: item.id,
              retryCount: item.retryCount,
              retryLimit: queueOptions(job as JobDef<never>, services.config).retryLimit,
            });
            results.push({ id: item.id, status: 'completed' as const });
          } catch (err) {
            log.warn({ err, job: job.name, id: item.id }, 'job failed');
            results.push({ id: item.id, status: 'failed' as const, output: { message: String((err as Error)?.message ?? err) } });
          }
        }
        return results;
      },
    );
    if (job.cron) await boss.schedule(job.name, job.cron(services), {}, { tz: 'UTC' });
    if (job.kickOnStart) await boss.sendThrottled(job.name, {}, {}, 2, 'start');
  }
}

/**
 * Enqueues inside the caller's open transaction (pg-boss's `db` option), so the job exists if and
 * only if the write that caused it commits.
 */
export async function enqueue<T extends object>(
  em: EntityManager,
  boss: PgBoss,
  job: JobDef<T>,
  data: T,
  options: { startAfter?: Date | number; singletonKey?: string } = {},
): Promise<void> {
  const trx = em.getTransactionContext();
  const db = trx ? fromKysely(trx as never) : undefined;
  await boss.send(job.name, data, { ...options, ...(db ? { db } : {}) });
}

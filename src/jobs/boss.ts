import { PgBoss, fromKysely } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../services.js';
import type { JobDef } from './job.js';
import { jobs } from './registry.js';

export type Boss = PgBoss;

export async function createBoss(url: string, log: AppServices['log']): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 4 });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, {
      retryLimit: job.retryLimit ?? 5,
      retryDelay: job.retryDelay ?? 10,
      retryBackoff: job.retryBackoff ?? true,
      expireInSeconds: job.expireInSeconds ?? 300,
    });
  }
  return boss;
}

/** The worker role: every registered job gets a worker, and cron jobs their schedule. */
export async function startWorkers(services: AppServices): Promise<void> {
  const { boss, log } = services;
  for (const job of jobs as JobDef<object>[]) {
    await boss.work(
      job.name,
      { batchSize: job.batchSize ?? 10, burstWhenBatchFull: true, pollingIntervalSeconds: 1, perJobResults: true },
      async (batch) => {
        const results = [];
        // Each job settles on its own: one failure retries that job, not the whole batch.
        for (const item of batch) {
          try {
            await job.perform(item.data as object, services);
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

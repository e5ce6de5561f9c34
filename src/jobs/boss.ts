import { PgBoss, fromKysely, type Db, type KyselyTransactionLike } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { JobDefinition } from './job.js';

export type Boss = PgBoss;

/** The options a job's queue is created with: its fixed ones, then those read from settings. */
export function queueOptions(job: JobDefinition, config: Config) {
  return {
    retryLimit: job.retryLimit ?? 5,
    retryDelay: job.retryDelay ?? 10,
    retryBackoff: job.retryBackoff ?? true,
    expireInSeconds: job.expireInSeconds ?? 300,
    ...job.queue?.(config),
  };
}

export async function createBoss(url: string, log: Logger, config: Config, jobs: readonly JobDefinition[]): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 4,
    // How soon a job that expired (expireInSeconds) is failed, for a retry.
    superviseIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
    monitorIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  for (const job of jobs) {
    const options = queueOptions(job, config);
    // createQueue leaves an existing queue as it is; settings may have changed since.
    if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, options);
    else {
      // A new queue has no heartbeat unless given one; pg-boss refuses the key with no number.
      const { heartbeatSeconds, ...rest } = options;
      await boss.createQueue(job.name, heartbeatSeconds ? { ...rest, heartbeatSeconds } : rest);
    }
  }
  return boss;
}

/**
 * pg-boss's `db` option for the open transaction of `em` (its calls then commit or roll back with
 * it), or undefined outside one. MikroORM 7's SQL drivers run on Kysely: an open transaction's
 * context is a Kysely transaction.
 */
export function transactionDb(em: EntityManager): Db | undefined {
  const trx = em.getTransactionContext<KyselyTransactionLike>();
  return trx ? fromKysely(trx) : undefined;
}

/**
 * Enqueues inside the caller's open transaction (pg-boss's `db` option), so the job exists if and
 * only if the write that caused it commits. The data is checked against the job's schema here
 * (a producer's bug fails its own write, not a worker later), and what the schema keeps is sent.
 */
export async function enqueue<S extends z.ZodObject>(
  em: EntityManager,
  boss: PgBoss,
  job: JobDefinition<S>,
  data: z.input<S>,
  options: { startAfter?: Date | number; singletonKey?: string } = {},
): Promise<void> {
  const db = transactionDb(em);
  await boss.send(job.name, job.schema.parse(data), { ...options, ...(db ? { db } : {}) });
}

/** enqueue for many jobs of one kind in one statement (pg-boss `insert`), each with its own start. */
export async function enqueueAll<S extends z.ZodObject>(
  em: EntityManager,
  boss: PgBoss,
  job: JobDefinition<S>,
  jobs: { data: z.input<S>; startAfter?: Date }[],
): Promise<void> {
  if (!jobs.length) return;
  const db = transactionDb(em);
  const rows = jobs.map(({ data, startAfter }) => ({ data: job.schema.parse(data), ...(startAfter ? { startAfter } : {}) }));
  await boss.insert(job.name, rows, db ? { db } : {});
}

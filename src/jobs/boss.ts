import { PgBoss, fromKysely, type KyselyTransactionLike } from 'pg-boss';
import type { QueueResult } from 'pg-boss';
// pg-boss's own SQL for a job insert (jobInsert below); the package has no exports map, so the deep import is its file.
import { insertJobs, notifyChannelSql } from 'pg-boss/dist/plans.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { AppServices } from '../services.js';
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

export async function createBoss(url: string, log: AppServices['log'], config: Config, jobs: readonly JobDefinition[]): Promise<PgBoss> {
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
  for (const job of jobs) {
    const options = queueOptions(job, config);
    // createQueue leaves an existing queue as it is; settings may have changed since.
    if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, options);
    else await boss.createQueue(job.name, options);
  }
  return boss;
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
  // MikroORM 7's SQL drivers run on Kysely: an open transaction's context is a Kysely transaction.
  const trx = em.getTransactionContext<KyselyTransactionLike>();
  const db = trx ? fromKysely(trx) : undefined;
  await boss.send(job.name, job.schema.parse(data), { ...options, ...(db ? { db } : {}) });
}

/** What a statement needs to write a job of one queue itself (jobInsert). */
export interface JobInsert {
  /** The CTE `name`: the INSERT `boss.send` makes, its rows (JSON text) read from `param`. */
  cte(name: string, param: string): string;
  /** A select-list expression to evaluate after it: pg-boss's wake-up NOTIFY when the queue has `notify`, else `0`. */
  wake(name: string): string;
  /** The rows `boss.send(job.name, data, options)` would insert, as the JSON text `param` takes. */
  rows(data: unknown[], options?: { startAfter?: Date }): string;
}

const inserts = new WeakMap<PgBoss, Map<string, Promise<JobInsert>>>();

/**
 * The job-insert of `boss.send` for `job`'s queue, to embed in a statement that writes what causes
 * the job (the transactional outbox in one round trip: the job exists if and only if that
 * statement commits). The SQL is pg-boss's own (plans.insertJobs, for the queue's table and
 * policy, its defaults joined from the queue row at insert time), and the rows are what
 * `send` passes it, so the job is the one `enqueue` would have written.
 */
export function jobInsert(boss: PgBoss, job: JobDefinition): Promise<JobInsert> {
  const byName = inserts.get(boss) ?? new Map<string, Promise<JobInsert>>();
  inserts.set(boss, byName);
  let found = byName.get(job.name);
  if (!found) {
    found = makeJobInsert(boss, job).catch((err) => {
      byName.delete(job.name);
      throw err;
    });
    byName.set(job.name, found);
  }
  return found;
}

async function makeJobInsert(boss: PgBoss, job: JobDefinition): Promise<JobInsert> {
  const queue = (await boss.getQueue(job.name)) as (QueueResult & { table: string }) | null;
  if (!queue) throw new Error(`Queue ${job.name} does not exist`);
  if (queue.policy === 'key_strict_fifo') throw new Error(`${job.name}: key_strict_fifo queues need a singletonKey`);
  const schema = 'pgboss';
  // With notify, pg-boss's own statement is a WITH of its own, which cannot nest: the same pieces, flattened.
  const insert = insertJobs(schema, { table: queue.table, name: job.name, returnId: true, notify: false });
  if (insert.split('$1::text::json').length !== 2) throw new Error('pg-boss insertJobs changed: no single $1 parameter');
  return {
    cte: (name, param) =>
      `${name} as (${insert.replace('$1::text::json', `(${param})::text::json`).replace(/RETURNING id\s*$/, queue.notify ? 'RETURNING id, start_after' : 'RETURNING id')})`,
    wake: (name) =>
      queue.notify
        ? `(select count(pg_notify(${notifyChannelSql(schema)}, '${job.name}')) from (select 1 from ${name} where start_after <= ${schema}.job_now() limit 1) w)`
        : '0',
    rows: (data, options = {}) =>
      JSON.stringify(
        data.map((d) => ({
          name: job.name,
          data: job.schema.parse(d),
          priority: 0,
          startAfter: options.startAfter?.toISOString(),
          singletonKey: null,
          singletonOffset: 0,
          groupId: null,
          groupTier: null,
          deadLetter: null,
        })),
      ),
  };
}

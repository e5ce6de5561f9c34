import type { AppServices } from '../../core/services.js';
import { retentionPartitionsDropped, retentionPurged } from '../../lib/metrics.js';
import { mailHoldMs, maintainPartitions, PARTITIONED_TABLES, type PartitionWork } from './partitions.js';
import { LIMITS } from '../sending/send.limits.js';
import { LOG_TABLES, RetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';

export interface PurgeResult {
  /** Rows deleted per table (`messages`: messages, with their emails, attachments and activities). */
  deleted: Record<string, number>;
  /** False when the time budget ran out first: the rest waits for the next run. */
  done: boolean;
  /** Weeks of the partitioned log tables made ahead and dropped whole (partitions.ts). */
  partitions: PartitionWork;
}

/**
 * Deletes everything past its retention, table by table, in bounded batches: each statement
 * deletes at most `batch` rows (short locks, a bounded WAL burst, and concurrent sends and
 * deliveries are never held back for long), and the run stops at its time budget. Partitioned
 * logs drop whole weeks first (their default partition alone is purged by rows). Mail goes by
 * the `purge_after` it was stamped with at acceptance (the plan then); the other logs by their
 * account's current plan, measured from when they were written.
 */
export async function purgeExpired(
  services: AppServices,
  opts: { now?: Date; batch?: number; budgetMs?: number } = {},
): Promise<PurgeResult> {
  const { config } = services;
  const now = opts.now ?? new Date();
  const batch = opts.batch ?? config.RETENTION_PURGE_BATCH;
  const stop = Date.now() + (opts.budgetMs ?? config.RETENTION_PURGE_SECONDS * 1000);
  const em = services.orm.em.fork();
  const repo = new RetentionRepository(em);
  const days = await new RetentionService(em, config).daysByPlan();
  const partitions = await maintainPartitions(em, now, days, mailHoldMs(config, LIMITS.scheduleHours));
  for (const name of partitions.dropped) retentionPartitionsDropped.inc({ table: PARTITIONED_TABLES.find((t) => name.startsWith(`${t.table}_p`))!.table });
  const deleted: Record<string, number> = {};
  const steps: [string, () => Promise<number>][] = [
    ['messages', () => repo.purgeMessages(now, batch)],
    ...LOG_TABLES.map((t): [string, () => Promise<number>] => [t.table, () => repo.purgeLog(t, now, days, batch)]),
  ];
  for (const [table, step] of steps) {
    for (;;) {
      if (Date.now() > stop) return { deleted, done: false, partitions };
      const n = await step();
      if (n) {
        deleted[table] = (deleted[table] ?? 0) + n;
        retentionPurged.inc({ table }, n);
      }
      if (n < batch) break;
    }
  }
  return { deleted, done: true, partitions };
}

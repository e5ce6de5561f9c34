import type { EntityManager } from '@mikro-orm/postgresql';
import { periodEnd, periodsBetween, PARTITION_DAYS, startOfName, type PartitionedTable } from '../../db/partitions.js';
import { PartitionRepository } from './partition.repository.js';

/** The log tables partitioned by week of their ids (db/partitions.ts). */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'webhook_attempts', idPrefix: '' },
  // A week drops with any delivery still pending in it: by then it is older than the longest
  // retention, far past the retry schedule; only a webhook paused that long still holds some.
  { table: 'webhook_deliveries', idPrefix: 'msg_' },
];

/** Weeks made ahead of the one under way, so rows never wait for their week to be made. */
export const WEEKS_AHEAD = 4;
const DAY_MS = 86_400_000;

export interface PartitionWork {
  made: string[];
  dropped: string[];
}

/**
 * Keeps each partitioned table's weeks: the one under way and WEEKS_AHEAD after it exist, and a
 * week drops whole once it ended longer ago than the longest retention of the plans accounts are
 * on (`daysByPlan`): nothing in it can still be shown. Within a week, rows past their own
 * account's retention are hidden by the reads (webhooks/log.service.ts) until the week drops.
 * The cost of a drop does not grow with the rows it holds (bench:retention).
 */
export async function maintainPartitions(em: EntityManager, now: Date, daysByPlan: Record<string, number>): Promise<PartitionWork> {
  const repo = new PartitionRepository(em);
  const inUse = await repo.plansInUse();
  const keepDays = Math.max(0, ...inUse.map((p) => daysByPlan[p] ?? 0));
  const work: PartitionWork = { made: [], dropped: [] };
  const nowMs = now.getTime();
  for (const t of PARTITIONED_TABLES) {
    const have = new Set(await repo.partitions(t.table));
    for (const p of periodsBetween(t, nowMs, nowMs + WEEKS_AHEAD * PARTITION_DAYS * DAY_MS)) {
      if (have.has(p.name)) continue;
      // A week already under way gets rows now: the default cannot refuse them meanwhile.
      if (p.startMs > Date.now()) await repo.makeAhead(t.table, p);
      else await repo.attach(t.table, p);
      work.made.push(p.name);
    }
    for (const name of have) {
      const start = startOfName(t, name);
      if (start === null || periodEnd(start) + keepDays * DAY_MS > nowMs) continue;
      await repo.drop(t.table, name);
      work.dropped.push(name);
    }
  }
  return work;
}

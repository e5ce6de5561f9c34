import type { EntityManager } from '@mikro-orm/postgresql';
import { periodEnd, periodOf, periodsBetween, PARTITION_DAYS, startOfName, type PartitionedTable } from '../../db/partitions.js';
import { PartitionRepository } from './partition.repository.js';

/**
 * The mail family, partitioned by week of their ids (Migration20261129030000_partitioned_mail): a
 * message, its emails and its attachments are made at one instant, so they share a week; an
 * activity or a captured copy is never older than its message. Their weeks drop together
 * (dropMailWeeks), the messages' last.
 */
export const MAIL_TABLES = ['messages', 'emails', 'message_attachments', 'activities', 'captured_mails'] as const;
const MESSAGES: PartitionedTable = { table: 'messages', idPrefix: '' };

/** The tables partitioned by week of their ids (db/partitions.ts). */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'webhook_attempts', idPrefix: '' },
  // A week drops with any delivery still pending in it: by then it is older than the longest
  // retention, far past the retry schedule; only a webhook paused that long still holds some.
  { table: 'webhook_deliveries', idPrefix: 'msg_' },
  ...MAIL_TABLES.map((table) => ({ table, idPrefix: '' })),
];
const isMail = (table: string) => (MAIL_TABLES as readonly string[]).includes(table);

/** Weeks made ahead of the one under way, so rows never wait for their week to be made. */
export const WEEKS_AHEAD = 4;
const DAY_MS = 86_400_000;

export interface PartitionWork {
  made: string[];
  dropped: string[];
}

/**
 * Keeps each partitioned table's weeks: the one under way and WEEKS_AHEAD after it exist. A week
 * of the webhook tables drops whole once it ended longer ago than the longest retention of the
 * plans accounts are on (`daysByPlan`): nothing in it can still be shown; within a week, rows past
 * their own account's retention are hidden by the reads (webhooks/log.service.ts) until then. A
 * week of mail drops by its own rule (dropMailWeeks, held `mailHoldMs` after it ended). The cost
 * of a drop does not grow with the rows it holds as deleting them would (bench:retention).
 */
export async function maintainPartitions(em: EntityManager, now: Date, daysByPlan: Record<string, number>, mailHoldMs: number): Promise<PartitionWork> {
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
    if (isMail(t.table)) continue;
    for (const name of have) {
      const start = startOfName(t, name);
      if (start === null || periodEnd(start) + keepDays * DAY_MS > nowMs) continue;
      await repo.drop(t.table, name);
      work.dropped.push(name);
    }
  }
  work.dropped.push(...(await dropMailWeeks(repo, now, mailHoldMs)));
  return work;
}

/**
 * Drops the weeks of mail, oldest first, each with the same week of every mail table, while the
 * week ended more than `holdMs` ago and no message of it is still shown (its `purge_after` to
 * come, or none) or still waits (a schedule, a paused domain); both are asked of the week's
 * indexes, so the cost does not grow with its rows (bench:retention). `holdMs` bounds the mail
 * still in delivery, which no index finds (mailHoldMs). Oldest first: once a week of messages is
 * gone, the same week of activities and captured copies holds only mail of gone weeks, hidden
 * by the reads already (modules/messages/message.status.ts).
 */
async function dropMailWeeks(repo: PartitionRepository, now: Date, holdMs: number): Promise<string[]> {
  const starts = (await repo.partitions(MESSAGES.table))
    .map((name) => startOfName(MESSAGES, name))
    .filter((start): start is number => start !== null)
    .sort((a, b) => a - b);
  const dropped: string[] = [];
  for (const start of starts) {
    if (periodEnd(start) + holdMs > now.getTime() || (await repo.mailWeekHeld(periodOf(MESSAGES, start), now))) break;
    // The messages' week last: a run stopped half-way finds the week again and finishes it.
    for (const table of [...MAIL_TABLES].reverse()) {
      const week = periodOf({ table, idPrefix: '' }, start).name;
      await repo.drop(table, week);
      dropped.push(week);
    }
  }
  return dropped;
}

/**
 * How long after its week ended mail may still be in delivery: the furthest send time (72 hours
 * ahead), the whole retry schedule of a deferred message (pg-boss's backoff: the delay doubling
 * up to 2^16 times it, at most), and a week more for a worker fleet stopped meanwhile. A message
 * still queued past that goes with its week.
 */
export function mailHoldMs(config: { DELIVERY_RETRY_LIMIT: number; DELIVERY_RETRY_DELAY_SECONDS: number }, scheduleHours: number): number {
  let retrySeconds = 0;
  for (let n = 0; n < config.DELIVERY_RETRY_LIMIT; n++) retrySeconds += config.DELIVERY_RETRY_DELAY_SECONDS * 2 ** Math.min(16, n + 1);
  return scheduleHours * 3_600_000 + retrySeconds * 1000 + PARTITION_DAYS * DAY_MS;
}

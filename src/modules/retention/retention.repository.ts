import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, textArray } from '../../db/sql.js';
import { DELIVERABLE_MESSAGE } from '../messages/message.status.js';
import { DELIVERY } from '../webhooks/webhook.entity.js';
import { INBOUND_MESSAGE } from '../inbound/inbound.entity.js';
import { QUEUED_SMS } from '../sms/sms.statuses.js';
import type { BulkState } from '../bulk/bulk-email.entity.js';
import type { Plan } from '../../config/plans.js';
import { PlanRetention } from './retention.entity.js';

/** Bulk requests the job has not finished: their status is still asked for. */
const UNFINISHED_BULK: readonly BulkState[] = ['queued', 'processing'];

/**
 * A log table purged by its account's current plan: rows older than the plan's retention go,
 * found through an index that starts with the owner's key (`owner`: the parent table whose rows
 * carry `account_id`, joined on `fk`; `accounts` itself when the table has `account_id`), so each
 * batch is a few index range scans, never a scan of the table. `keep` names rows that are still
 * work in progress (a pending webhook delivery, an inbound message still received): those stay whatever their
 * age. Its `$n` parameters come after the three every statement takes.
 */
interface LogTable {
  table: string;
  owner: string;
  fk: string;
  at: string;
  keep: string | null;
  keepValues: unknown[];
}

/** Identifiers and status constants only: the values go in as parameters. */
export const LOG_TABLES: readonly LogTable[] = [
  // Partitioned by week (partitions.ts): weeks drop whole; only their defaults (ids of no week) go by rows.
  { table: 'webhook_attempts_default', owner: 'webhooks', fk: 'webhook_id', at: 'attempted_at', keep: null, keepValues: [] },
  { table: 'webhook_deliveries_default', owner: 'webhooks', fk: 'webhook_id', at: 'created_at', keep: 't.state = $4', keepValues: [DELIVERY.pending] },
  // domain_events is not here: it is an outbox whose events the webhook dispatcher deletes as it
  // takes them, so every row in it is work in progress.
  { table: 'inbound_messages', owner: 'inbounds', fk: 'inbound_id', at: 'created_at', keep: 't.status = $4', keepValues: [INBOUND_MESSAGE.received] },
  // Its texts (table sms) and their activities go with it (on delete cascade).
  {
    table: 'sms_messages',
    owner: 'accounts',
    fk: 'account_id',
    at: 'created_at',
    keep: 'exists (select 1 from sms s where s.message_id = t.id and s.status = $4)',
    keepValues: [QUEUED_SMS],
  },
  { table: 'sms_inbound_messages', owner: 'sms_numbers', fk: 'sms_number_id', at: 'created_at', keep: null, keepValues: [] },
  // A bulk request's status (GET /v1/bulk-email/{id}) lists message ids that are gone by then.
  { table: 'bulk_emails', owner: 'accounts', fk: 'account_id', at: 'created_at', keep: 't.state = any($4::text[])', keepValues: [textArray(UNFINISHED_BULK)] },
];

/**
 * One batch of one log table: $1 now, $2 the retention days by plan (jsonb), $3 the batch size.
 * An account on a plan the map lacks has no cutoff (null): nothing of it is deleted.
 */
function logBatchSql(t: LogTable): string {
  const owner = t.owner === 'accounts' ? 'acc.id' : 'o.id';
  const join = t.owner === 'accounts' ? '' : `join ${t.owner} o on o.account_id = acc.id`;
  return `with acc as (
      select a.id, $1::timestamptz - make_interval(days => ($2::jsonb ->> a.plan)::int) as cutoff from accounts a
    ),
    victim as (
      select v.id from acc ${join}
      cross join lateral (
        select t.id from ${t.table} t
         where t.${t.fk} = ${owner} and t.${t.at} < acc.cutoff${t.keep ? ` and not (${t.keep})` : ''}
         limit $3
      ) v
      limit $3
    )
    delete from ${t.table} where id in (select id from victim)`;
}

/** Retention's SQL: the batches the purge job deletes (retention.purge.ts), and the operator's days per plan. */
export class RetentionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The days the operator set, by plan (plans it set none for are absent). */
  async overrides(): Promise<Partial<Record<Plan, number>>> {
    const rows = await this.em.find(PlanRetention, {});
    return Object.fromEntries(rows.map((r) => [r.plan, r.days]));
  }

  /** Sets a plan's days, or (null) returns it to the environment's. */
  async setOverride(plan: Plan, days: number | null): Promise<void> {
    if (days === null) await this.em.nativeDelete(PlanRetention, { plan });
    else await this.em.upsert(PlanRetention, { plan, days, updated_at: new Date() });
  }

  /**
   * Up to `batch` messages of the default partition (ids of no week: written before the mail was
   * partitioned) whose `purge_after` has passed and that no delivery will take up again
   * (DELIVERABLE_MESSAGE stay whatever their age); the weeks drop whole (partitions.ts). Deleted
   * through the parent, whose triggers take their emails and attachments, and the emails' activities
   * and captured copies, with them (Migration20261129030000_partitioned_mail). Returns the
   * messages deleted.
   */
  async purgeMessages(now: Date, batch: number): Promise<number> {
    return sqlCount(
      this.em,
      `delete from messages where id in (
         select id from messages_default where purge_after < $1 and status <> all($2::text[]) limit $3
       )`,
      [now, textArray(DELIVERABLE_MESSAGE), batch],
    );
  }

  /** Up to `batch` rows of one log table past its account's retention; returns the rows deleted. */
  async purgeLog(t: LogTable, now: Date, days: Record<string, number>, batch: number): Promise<number> {
    return sqlCount(this.em, logBatchSql(t), [now, JSON.stringify(days), batch, ...t.keepValues]);
  }
}

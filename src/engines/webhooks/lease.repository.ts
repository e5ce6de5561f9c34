import type { EntityManager } from '@mikro-orm/postgresql';
import { DELIVERY } from '../../modules/webhooks/webhook.entity.js';
import { lines, split, sqlCount, sqlRow, sqlRows, textArray, textColumns, type SqlRunner } from '../../db/sql.js';
import { logSuccesses, successArrays, SUCCESS_ROWS, UNWRITTEN, type SuccessColumns } from './success.repository.js';
import { idsFrom } from '../../db/partitions.js';
import { LOCK_WEBHOOKS, type Claimed, type NewDelivery } from '../../modules/webhooks/webhook.repository.js';

/**
 * One dispatch batch's lease row (dispatch-lease.entity.ts) as its worker tracks it: how many of
 * its deliveries are still to be written, and whether a write of one of them failed (then the row
 * is never deleted by the worker, and its lease running out brings every delivery back).
 */
export interface BatchLease {
  id: string;
  until: string;
  left: number;
  broken: boolean;
}

/** A delivery dispatched to this worker and not written yet: it is written with its first outcome. */
export interface FreshDelivery extends Claimed {
  event_id: string;
  created_at: string;
  lease: BatchLease;
}

export const isFresh = (d: Claimed): d is FreshDelivery => (d as Partial<FreshDelivery>).lease !== undefined;

/*
 * The statements of dispatch leases (dispatch-lease.entity.ts), named as in dispatch.repository.ts:
 * those run on the pool are prepared once per connection; WRITE_LEASE runs in the dispatch transaction.
 */

const WRITE_LEASE = `insert into webhook_dispatch_leases (id, lease_until, created_at, delivery_ids, webhook_ids, event_ids, types, bodies)
   values ($1, $2::timestamptz, $3::timestamptz, ${split('$4')}, ${split('$5')}, ${split('$6')}, ${split('$7')}, ${split('$8')})`;

/*
 * Fresh deliveries whose first attempt succeeded: the delivery written delivered and its attempt
 * logged, in one statement, and the lease rows of batches now fully written deleted with them.
 * What the delivery row needs besides its outcome (webhook, event, type, body, creation time) is
 * read from its batch's lease row, which holds it already, rather than sent a second time (the
 * bodies are most of a round's bytes). A delivery of a webhook deleted meanwhile is skipped (the
 * join to its locked webhooks), not written for nothing. One whose lease row is gone (it ran out and
 * a tick wrote the delivery pending, same id) is not written here: the caller records it as a
 * claimed one.
 */
const DELIVERED_FRESH = `with ${SUCCESS_ROWS},
   l as (
     select l.created_at, u.* from webhook_dispatch_leases l
       cross join lateral unnest(l.delivery_ids, l.webhook_ids, l.event_ids, l.types, l.bodies) as u(id, webhook_id, event_id, type, body)
      where l.id = any($7::text[])
   ),
   ${LOCK_WEBHOOKS('l')},
   d as (
     insert into webhook_deliveries as d (id, webhook_id, event_id, type, body, state, attempts, last_status, next_attempt_at, created_at, updated_at)
     select l.id, l.webhook_id, l.event_id, l.type, l.body, $8, 1, x.status, null, l.created_at, now()
       from x join l on l.id = x.delivery_id join w on w.id = l.webhook_id
     on conflict (id) do update
       set state = excluded.state, attempts = d.attempts + 1, last_status = excluded.last_status, next_attempt_at = null, updated_at = now()
     returning d.id, d.webhook_id, d.type
   ),
   a as (${logSuccesses('d')}),
   gone as (delete from webhook_dispatch_leases where id = any($9::text[]))
   ${UNWRITTEN}`;

/* Fresh deliveries not delivered at their first attempt: written pending (due when given), for the failure record to move on. */
const PENDING_FRESH = `with x as (
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
       as x(id, webhook_id, event_id, type, body, created_at, due)
   ),
   ${LOCK_WEBHOOKS('x')}
   insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
   select x.id, x.webhook_id, x.event_id, x.type, x.body, $8, 0, x.due, x.created_at, now()
     from x join w on w.id = x.webhook_id
   on conflict (id) do nothing`;

/*
 * Batches whose worker did not write them in time (it died, or its records failed): the lease
 * row goes and its deliveries are written pending and due now, with their ids and bodies, so the
 * claim attempts them; any already written (on conflict) stay as they are.
 */
const RECOVER = `with gone as (
     delete from webhook_dispatch_leases where id in (
       select id from webhook_dispatch_leases where lease_until <= $1::timestamptz order by lease_until limit $2 for update skip locked)
     returning created_at, delivery_ids, webhook_ids, event_ids, types, bodies
   ),
   owed as (
     select g.created_at, x.* from gone g
       cross join lateral unnest(g.delivery_ids, g.webhook_ids, g.event_ids, g.types, g.bodies) as x(id, webhook_id, event_id, type, body)
   ),
   ${LOCK_WEBHOOKS('owed')},
   ins as (
     insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
     select x.id, x.webhook_id, x.event_id, x.type, x.body, $3, 0, $1::timestamptz, x.created_at, $1::timestamptz
       from owed x join w on w.id = x.webhook_id
     on conflict (id) do nothing
     returning id
   )
   select count(*)::int as n from ins`;

/*
 * Leases renewed by the conveyor that holds them (webhook.delivery.ts): claimed deliveries still
 * pending, never moved sooner than they already are, and the lease rows of fresh batches.
 */
const RENEW = `with ids as (select unnest($2::text[]) as id),
   claimed as (
     update webhook_deliveries set next_attempt_at = $1::timestamptz
      where ${idsFrom('webhook_deliveries.id', 'ids', 'id')} and state = $4 and next_attempt_at < $1::timestamptz
   )
   update webhook_dispatch_leases set lease_until = $1::timestamptz where id = any($3::text[]) and lease_until < $1::timestamptz`;

/** The lease row of a batch, written by the transaction that dispatches it (`on` is that transaction). */
export async function writeLease(on: SqlRunner, lease: BatchLease, rows: NewDelivery[], now: string): Promise<void> {
  const values = [
    lease.id,
    lease.until,
    now,
    lines(rows.map((r) => r.id)),
    lines(rows.map((r) => r.webhook_id)),
    lines(rows.map((r) => r.event_id)),
    lines(rows.map((r) => r.type)),
    lines(rows.map((r) => r.body)),
  ];
  await sqlCount(on, { name: 'webhooks.write_lease', text: WRITE_LEASE }, values);
}

/** Writes of fresh deliveries and recovery of lapsed leases, each its own transaction on the ORM's pool. */
export class LeaseRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Fresh deliveries whose first attempt succeeded, written delivered with their attempts from
   * the lease rows `leases` of their batches, and the lease rows `done` deleted, in one statement.
   * Returns the deliveries not written.
   */
  async recordFreshDelivered(rows: SuccessColumns, leases: string[], done: string[]): Promise<Set<string>> {
    if (!rows.size && !done.length) return new Set();
    const values = [
      ...successArrays(rows),
      textArray(leases),
      DELIVERY.delivered,
      textArray(done),
    ];
    const unwritten = await sqlRows<{ delivery_id: string }>(this.em, { name: 'webhooks.delivered_fresh', text: DELIVERED_FRESH }, values);
    return new Set(unwritten.map((r) => r.delivery_id));
  }

  /** Fresh deliveries written pending, due at their lease's end (one that failed is then moved on by its failure record). */
  async writeFreshPending(rows: FreshDelivery[]): Promise<void> {
    if (!rows.length) return;
    const values = [
      ...textColumns(rows, ['id', 'webhook_id', 'event_id', 'type', 'body', 'created_at']),
      textArray(rows.map((d) => d.lease.until)),
      DELIVERY.pending,
    ];
    await sqlCount(this.em, { name: 'webhooks.pending_fresh', text: PENDING_FRESH }, values);
  }

  /** Keeps the claimed deliveries `deliveryIds` and the fresh batches `leaseIds` leased until `until`. */
  async renew(until: Date, deliveryIds: string[], leaseIds: string[]): Promise<void> {
    const values = [until.toISOString(), textArray(deliveryIds), textArray(leaseIds), DELIVERY.pending];
    await sqlCount(this.em, { name: 'webhooks.renew', text: RENEW }, values);
  }

  /** Writes the deliveries of up to `limit` batches whose lease ran out by `now`, due now; returns how many were written. */
  async recoverLeases(now: Date, limit: number): Promise<number> {
    const values = [now.toISOString(), limit, DELIVERY.pending];
    return (await sqlRow<{ n: number }>(this.em, { name: 'webhooks.recover', text: RECOVER }, values))?.n ?? 0;
  }
}

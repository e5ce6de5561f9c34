import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventRow } from './event.payload.js';
import { DELIVERY, WEBHOOK_KIND, type WebhookKind } from '../../modules/webhooks/webhook.entity.js';
import { LOCK_WEBHOOKS, type Claimed, type EventReach, type NewDelivery, type WebhookRow } from '../../modules/webhooks/webhook.repository.js';
import { LeaseRepository, writeLease, type BatchLease } from './lease.repository.js';
import { inPooledTransaction, sqlRow, sqlRows, textArray, textColumns, type PooledTransaction } from '../../db/sql.js';
import { logSuccesses, successArrays, SUCCESS_ROWS, UNWRITTEN, type SuccessColumns } from './success.repository.js';
import { idsFrom } from '../../db/partitions.js';

/** The kinds the dispatcher writes deliveries for; inbound-route targets get theirs from the route. */
const DISPATCHED: WebhookKind[] = [WEBHOOK_KIND.email, WEBHOOK_KIND.sms];

/*
 * The engine's hot statements, named: those run outside a transaction (the claim, the delivered
 * records) are prepared statements on the ORM's pool, parsed once per pooled connection. Their
 * parameters are sent apart, never quoted into the text (a round's bodies and log rows are
 * hundreds of kilobytes). States and kinds are parameters.
 */

/*
 * The pending state is written into the text (from its constant), not a parameter: the plan,
 * generic after a few runs, may then use the partial index of pending deliveries
 * (webhook_deliveries_due_index), which a parameter's unknown value could not be proved to match.
 * The deliveries are chosen and locked first (`c`), then updated by id in the weeks that hold
 * them only (db/partitions.ts idsFrom): an update joined to a subquery read every week.
 */
const CLAIM = `with c as materialized (
     select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
      where d2.state = '${DELIVERY.pending}' and d2.next_attempt_at <= $2::timestamptz
        and w2.enabled and w2.paused_reason is null
      order by d2.next_attempt_at limit $3 for update of d2 skip locked
   )
   update webhook_deliveries d set next_attempt_at = $1::timestamptz, updated_at = $2::timestamptz
    from webhooks w
   where w.id = d.webhook_id and ${idsFrom('d.id', 'c', 'id')}
   returning d.id, d.webhook_id, d.type, d.body, w.url, w.secret_enc, w.account_id, w.domain_id`;

/*
 * Rows go in as one array per column (unnest): PostgreSQL reads arrays of text faster than it
 * parses a JSON document of objects, and the bodies need no second layer of JSON escaping.
 * The delivery is found once, by the update, whose returning row feeds the attempt.
 */
const DELIVERED = `with ${SUCCESS_ROWS},
   u as (
     update webhook_deliveries d set state = $7, attempts = d.attempts + 1, last_status = x.status,
            next_attempt_at = null, updated_at = now()
       from x where d.id = x.delivery_id and ${idsFrom('d.id', 'x', 'delivery_id')}
     returning d.id, d.webhook_id, d.type
   ),
   a as (${logSuccesses('u')})
   ${UNWRITTEN}`;

/*
 * Taken and deleted in one pass: domain_events is an outbox (events/domain-event.entity.ts), and
 * the transaction that deletes an event writes what it owes (its deliveries, or the lease row that
 * holds them), so it is taken once. A delete writes no new row version and no index entry, a
 * fraction of the PostgreSQL CPU that marking it dispatched cost (bench:webhooks). The rows
 * locked are deleted where they lie (ctid: the lock keeps them there), not found again through the
 * primary key. The time comes as ISO text with its microseconds, exact, for the point the next
 * take starts after; takeEvents turns it into SPEC.md's <iso> (lib/timestamps.ts isoTimestamp:
 * milliseconds, then 000), which every body carries: parsing it into a Date and formatting it
 * back cost more per event than the rest of its dispatch. The payload comes as its JSON text, for
 * the bodies to splice in (event.payload.ts deliveryBody).
 * The batch comes back as one text (readEvents): an event per record, separated by the ASCII
 * record separator, its fields by the unit separator, the payload last. Neither can be in an event:
 * ids and types are plain, and JSON writes control characters only escaped (PostgreSQL's json
 * input refuses them raw). One value to decode instead of six per event row, where pg's reading
 * of the rows cost more of the dispatching thread than the bodies' building.
 */
const takeEvents = (where: string) => `with taken as (
     delete from domain_events e
      using (select ctid from domain_events ${where} order by created_at, id limit $1 for update skip locked) s
      where e.ctid = s.ctid
      returning e.id, e.account_id, e.domain_id, e.type, e.payload, e.created_at
   )
   select string_agg(concat(id, chr(31), account_id, chr(31), domain_id, chr(31), type, chr(31),
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), chr(31), payload::text), chr(30)
            order by created_at, id) as events
     from taken`;
export const TAKE_EVENTS = takeEvents('');

/*
 * The same after a point of the queue: what a dispatch takes after its first batch. The events it
 * deleted stay in the queue index as dead entries until a vacuum, at its start, where every take
 * from the start of the queue steps over them again: draining a backlog of N events cost N^2 /
 * batch steps. A take after the last event taken (its exact time, and its id: the events of one
 * transaction share their time) starts past them. Events it passes over (one whose transaction
 * committed after a later one was taken, or one another worker held locked and gave back) are
 * taken by a take from the start, which ends every dispatch (event.dispatch.ts).
 */
export const TAKE_EVENTS_AFTER = takeEvents('where (created_at, id) > ($2::timestamptz, $3)');

/** A point of the queue: an event's exact time (ISO, microseconds) and its id. */
export interface QueuePoint {
  created_at: string;
  id: string;
}

/** The events of TAKE_EVENTS' one text, in its order; an empty field is a null id. */
function readEvents(text: string | null): EventRow[] {
  if (!text) return [];
  return text.split('\x1e').map((record) => {
    const a = record.indexOf('\x1f');
    const b = record.indexOf('\x1f', a + 1);
    const c = record.indexOf('\x1f', b + 1);
    const d = record.indexOf('\x1f', c + 1);
    const e = record.indexOf('\x1f', d + 1);
    if (e < 0) throw new Error('an event taken could not be read');
    return {
      id: record.slice(0, a),
      account_id: record.slice(a + 1, b) || null,
      domain_id: record.slice(b + 1, c) || null,
      type: record.slice(c + 1, d),
      created_at: record.slice(d + 1, e),
      payload: record.slice(e + 1),
    };
  });
}

/** SPEC.md's <iso> form of a time the take gives with microseconds: milliseconds, then 000. */
const isoOfExact = (exact: string): string => `${exact.slice(0, 23)}000Z`;

/*
 * The dispatch transaction starts with bitmap and sequential scans off, for TAKE_EVENTS: its plan
 * may be made while few events wait (the statistics say so), and with an estimate below the limit
 * the planner reads every waiting event (through a bitmap, or the whole table once it holds only
 * the backlog) and sorts them all, and finds the rows to delete by a scan and a hash join instead
 * of their ctid, for each batch: a backlog of N events cost N log N per batch, most of it the
 * bitmap and the sort. An index scan of the queue index reads them in order and stops at the
 * limit, and a TID scan deletes each (test/webhooks/outbox.test.ts checks the plan). The
 * transaction's other statements write, or read the webhooks table (candidates: an index scan of
 * it instead of a scan, about as much). Both settings are local: they end with the transaction.
 */
export const DISPATCH_SETTINGS = 'set local enable_bitmapscan = off; set local enable_seqscan = off';
const BEGIN_DISPATCH = `begin; ${DISPATCH_SETTINGS}`;

const CANDIDATES = `select w.id, w.account_id, w.kind, w.domain_id, w.sms_number_id, w.url, w.secret_enc, w.events, w.created_at, a.plan
    from webhooks w join accounts a on a.id = w.account_id
   where w.enabled and w.paused_reason is null and w.kind = any($1::text[]) and w.events && $2::text[]
     and (w.domain_id = any($3::text[]) or w.account_id = any($4::text[]) or w.sms_number_id = any($5::text[]) or $6::boolean)`;

/* Joined to their webhooks, locked once each: there is no foreign key (webhook.repository.ts LOCK_WEBHOOKS). */
const WRITE_DELIVERIES = `with x as (
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as x(id, webhook_id, event_id, type, body)
   ),
   ${LOCK_WEBHOOKS('x')},
   ins as (
     insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
     select x.id, x.webhook_id, x.event_id, x.type, x.body, $6, 0, $7::timestamptz, $8::timestamptz, $8::timestamptz
       from x join w on w.id = x.webhook_id
     on conflict (id) do nothing
     returning id
   )
   select id from ins`;

/** One dispatch transaction's statements, on its connection. */
export class DispatchTx {
  constructor(private readonly tx: PooledTransaction) {}

  /**
   * The oldest events (skip locked, so several workers share the backlog), deleted by this
   * transaction, in the order they happened; with `after`, the oldest after that point. Also
   * the point of the last one, where the next take may start.
   */
  async takeEvents(limit: number, after: QueuePoint | null = null): Promise<{ events: EventRow[]; last: QueuePoint | null }> {
    const taken = after === null
      ? await sqlRow<{ events: string | null }>(this.tx, { name: 'webhooks.take_events', text: TAKE_EVENTS }, [limit])
      : await sqlRow<{ events: string | null }>(this.tx, { name: 'webhooks.take_events_after', text: TAKE_EVENTS_AFTER }, [limit, after.created_at, after.id]);
    const events = readEvents(taken?.events ?? null);
    const end = events.at(-1);
    const last = end ? { created_at: end.created_at, id: end.id } : null;
    for (const e of events) e.created_at = isoOfExact(e.created_at);
    return { events, last };
  }

  /** Enabled, unpaused email and SMS webhooks subscribed to one of the types and placed where one of the events is. */
  async candidates(reach: EventReach): Promise<WebhookRow[]> {
    const values = [
      textArray(DISPATCHED),
      textArray(reach.types),
      textArray(reach.domains),
      textArray(reach.accounts),
      textArray(reach.smsNumbers),
      reach.platformWide,
    ];
    return sqlRows<WebhookRow>(this.tx, { name: 'webhooks.candidates', text: CANDIDATES }, values);
  }

  /**
   * Pending deliveries due at `due` (a lease when the dispatching worker attempts them itself),
   * one per webhook and event so a re-run writes nothing twice. Returns the ids written.
   */
  async writeDeliveries(rows: NewDelivery[], now: string, due: string): Promise<Set<string>> {
    if (!rows.length) return new Set();
    const values = [
      ...textColumns(rows, ['id', 'webhook_id', 'event_id', 'type', 'body']),
      DELIVERY.pending,
      due,
      now,
    ];
    const written = await sqlRows<{ id: string }>(this.tx, { name: 'webhooks.write_deliveries', text: WRITE_DELIVERIES }, values);
    return new Set(written.map((r) => r.id));
  }

  /** The lease row of a batch whose deliveries this worker posts before writing them (dispatch-lease.entity.ts). */
  writeLease(lease: BatchLease, rows: NewDelivery[], now: string): Promise<void> {
    return writeLease(this.tx, lease, rows, now);
  }
}

/**
 * The engine's statements outside the dispatch transaction, each its own transaction on the ORM's
 * pool: `em` is one in no transaction (the global one, or a plain fork).
 */
export class EngineRepository {
  private constructor(private readonly em: EntityManager) {}

  static async of(em: EntityManager): Promise<EngineRepository> {
    return new EngineRepository(em);
  }

  /** The statements of dispatch leases, on the same pool. */
  get leases(): LeaseRepository {
    return new LeaseRepository(this.em);
  }

  /** Due deliveries of enabled, unpaused webhooks, oldest due first, leased to the caller until `leaseUntil`. */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Claimed[]> {
    const values = [leaseUntil.toISOString(), now.toISOString(), limit];
    return sqlRows<Claimed>(this.em, { name: 'webhooks.claim', text: CLAIM }, values);
  }

  /**
   * A round's successful attempts in one statement: each attempt logged and its delivery done.
   * Returns the deliveries not written (one whose delivery is gone, its webhook deleted).
   */
  async recordDelivered(rows: SuccessColumns): Promise<Set<string>> {
    if (!rows.size) return new Set();
    const values = [
      ...successArrays(rows),
      DELIVERY.delivered,
    ];
    const unwritten = await sqlRows<{ delivery_id: string }>(this.em, { name: 'webhooks.delivered', text: DELIVERED }, values);
    return new Set(unwritten.map((r) => r.delivery_id));
  }

  /**
   * Runs `work` in one transaction on one pooled connection, opened with BEGIN_DISPATCH in one
   * round trip, where its named statements stay prepared (db/sql.ts inPooledTransaction).
   */
  dispatch<T>(work: (tx: DispatchTx) => Promise<T>): Promise<T> {
    return inPooledTransaction(this.em, BEGIN_DISPATCH, (tx) => work(new DispatchTx(tx)));
  }
}

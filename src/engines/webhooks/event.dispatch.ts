import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, sortableId } from '../../lib/ids.js';
import type { Plan } from '../../config/plans.js';
import { deliveryBody, isSmsEvent, type EventRow } from './event.payload.js';
import { WEBHOOK_KIND } from '../../modules/webhooks/webhook.entity.js';
import { EngineRepository, type QueuePoint } from './dispatch.repository.js';
import type { BatchLease, FreshDelivery } from './lease.repository.js';
import type { WebhookRow } from '../../modules/webhooks/webhook.repository.js';

/** Events taken per transaction: enough to amortise the round trips, small enough to keep locks short. */
export const DISPATCH_BATCH = 200;

/** When an event happened, in milliseconds, as a webhook's time is read: its first 23 characters are an ISO date-time. */
const eventMs = (event: EventRow): number => Date.parse(`${event.created_at.slice(0, 23)}Z`);

/** The plan on which `activity.deferred` is not delivered (SPEC.md Limits: paid plans only). */
const FREE_PLAN: Plan = 'free';

/** The SMS number an `sms.*` event belongs to (events/sms-events.ts payload; only SMS events' payloads are parsed). */
function smsNumberOf(event: EventRow): string | null {
  const id = (JSON.parse(event.payload) as { sms_number_id?: unknown }).sms_number_id;
  return typeof id === 'string' ? id : null;
}

/**
 * Which of the candidate webhooks an event goes to:
 * - an `sms.*` event: the SMS webhooks of its SMS number, and nothing else;
 * - any other event goes to email webhooks only:
 *   - an event of a domain: that domain's webhooks;
 *   - an event of an account without a domain (a bulk send by an unrestricted token): every
 *     email webhook of the account;
 *   - a platform-wide event (no account: a maintenance window): every email webhook.
 * Each must subscribe to the type and have existed when the event happened, and
 * `activity.deferred` reaches only paid plans. Inbound-route targets (kind sms_inbound) are not
 * candidates at all: their deliveries are written by the inbound route itself.
 * `young`: the creation times of the webhooks made after some event of the batch; the others
 * existed before all of them, and the event's time is not read for them.
 */
function targetsOf(event: EventRow, webhooks: WebhookRow[], young: ReadonlyMap<WebhookRow, number>): WebhookRow[] {
  const sms = isSmsEvent(event.type);
  const smsNumber = sms ? smsNumberOf(event) : null;
  const happened = young.size ? eventMs(event) : 0;
  return webhooks.filter((w) => {
    if (!w.events.includes(event.type)) return false;
    if ((young.get(w) ?? 0) > happened) return false;
    if (sms) return w.kind === WEBHOOK_KIND.sms && w.sms_number_id === smsNumber && w.account_id === event.account_id;
    if (w.kind !== WEBHOOK_KIND.email) return false;
    if (event.domain_id) {
      if (w.domain_id !== event.domain_id) return false;
    } else if (event.account_id && w.account_id !== event.account_id) return false;
    if (event.type === 'activity.deferred' && w.plan === FREE_PLAN) return false;
    return true;
  });
}

/**
 * What the dispatching worker does with the deliveries of its batches: it attempts them itself,
 * so they are handed to `deliver` once the batch is committed, with no claim statement, and
 * written only with their first outcome (round.record.ts); meanwhile the batch's lease row (until
 * `lease()`) records them, and if the worker dies first they are written due when it runs out.
 */
export interface DispatchHandOff {
  lease: () => Date;
  deliver: (claimed: FreshDelivery[]) => Promise<void>;
}

/**
 * Turns one batch of undispatched events into deliveries, in one transaction: the events are
 * taken and marked dispatched (skip locked, so several workers share the backlog), and one
 * delivery made per subscribed webhook. Without `lease` they are written pending and due now
 * (unique per webhook and event, so a re-run writes nothing twice); with it, one lease row
 * holds them all and they are returned for the caller to post and write. Returns how many
 * events were taken, and those deliveries.
 */
export async function dispatchBatch(
  em: EntityManager,
  lease: (() => Date) | null = null,
  limit = DISPATCH_BATCH,
  after: QueuePoint | null = null,
): Promise<{ events: number; claimed: FreshDelivery[]; last: QueuePoint | null }> {
  return (await EngineRepository.of(em)).dispatch(async (tx) => {
    const now = new Date().toISOString();
    const { events, last } = await tx.takeEvents(limit, after);
    if (!events.length) return { events: 0, claimed: [], last: null };
    // A paused or disabled webhook gets no new deliveries.
    const webhooks = await tx.candidates({
      types: [...new Set(events.map((e) => e.type))],
      domains: [...new Set(events.filter((e) => e.domain_id).map((e) => e.domain_id!))],
      accounts: [...new Set(events.filter((e) => !e.domain_id && e.account_id && !isSmsEvent(e.type)).map((e) => e.account_id!))],
      smsNumbers: [...new Set(events.filter((e) => isSmsEvent(e.type)).map(smsNumberOf).filter((n) => n !== null))],
      platformWide: events.some((e) => !e.domain_id && !e.account_id),
    });
    // Each webhook's creation time parsed once, not once per event; events come oldest first, so
    // only a webhook made after the first needs any event's time compared with its own.
    const first = eventMs(events[0]);
    const young = new Map(webhooks.map((w) => [w, new Date(w.created_at).getTime()] as const).filter(([, ms]) => ms > first));
    // One object per delivery: the row written (NewDelivery's fields) is the delivery handed off.
    // Its batch is filled in once the batch's size is known.
    const batch: BatchLease = { id: '', until: '', left: 0, broken: false };
    const claimed: FreshDelivery[] = [];
    for (const event of events) {
      for (const w of targetsOf(event, webhooks, young)) {
        claimed.push({
          id: `msg_${sortableId(24)}`,
          webhook_id: w.id,
          event_id: event.id,
          type: event.type,
          body: deliveryBody(event, w),
          url: w.url,
          secret_enc: w.secret_enc,
          account_id: w.account_id,
          domain_id: w.domain_id,
          created_at: now,
          lease: batch,
        });
      }
    }
    if (!lease) {
      await tx.writeDeliveries(claimed, now, now);
      return { events: events.length, claimed: [], last };
    }
    if (!claimed.length) return { events: events.length, claimed: [], last };
    // Committed with the events it takes: what records that these deliveries are owed until the
    // caller writes them with their first outcome (dispatch-lease.entity.ts).
    batch.id = newId();
    batch.until = lease().toISOString();
    batch.left = claimed.length;
    await tx.writeLease(batch, claimed, now);
    return { events: events.length, claimed, last };
  });
}

/** Whether point `a` of the queue comes after `b` (times are ISO text of fixed width: they sort as text). */
const isAfter = (a: QueuePoint, b: QueuePoint | null): boolean =>
  !b || a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

/** The first batch of a dispatch that hands its deliveries off (see dispatchEvents). */
const FIRST_BATCH = 50;

/**
 * Dispatch transactions at a time (skip locked keeps their events apart): one's commit, a WAL
 * flush, overlaps the other's statements.
 */
const LANES = 2;

/**
 * Dispatches until the backlog is empty or the time budget is spent. With `handOff`, each
 * batch's deliveries go to the caller as soon as they are committed, while the next batch is
 * dispatched (the caller's `deliver` paces it).
 */
export async function dispatchEvents(em: EntityManager, handOff?: DispatchHandOff, budgetMs = 20_000): Promise<number> {
  const stop = Date.now() + budgetMs;
  let total = 0;
  // The last event taken by either lane: later batches take after it (dispatch.repository.ts
  // TAKE_EVENTS_AFTER). A point misjudged (ids sorted otherwise than by the database) only leaves
  // more to the take from the start.
  let after: QueuePoint | null = null;
  const lane = async (index: number) => {
    // The first lane's first batch is small, so that posting starts after a short transaction
    // rather than a full one, while the conveyor would otherwise sit idle (bench:webhooks times
    // a tick from its start to its first request).
    let limit = index === 0 && handOff ? FIRST_BATCH : DISPATCH_BATCH;
    for (;;) {
      const from = after;
      // No fork per batch: a batch's statements go to the pool's own connections, not the ORM's unit of work.
      const { events, claimed, last } = await dispatchBatch(em, handOff ? handOff.lease : null, limit, from);
      const full = events === limit;
      limit = DISPATCH_BATCH;
      total += events;
      if (last && isAfter(last, after)) after = last;
      if (handOff && claimed.length) await handOff.deliver(claimed);
      if (Date.now() > stop) return;
      if (!full) {
        // A lane ends on a take from the start of the queue that leaves the backlog empty, so
        // nothing a take after a point passed over is left for the next tick.
        if (from === null) return;
        after = null;
      }
    }
  };
  // Both lanes end before this does, even when one fails, so nothing is handed off afterwards.
  const ended = await Promise.allSettled(Array.from({ length: LANES }, (_, index) => lane(index)));
  const failed = ended.find((e) => e.status === 'rejected');
  if (failed) throw failed.reason;
  return total;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { Plan } from '../accounts/plans.js';
import { deliveryBody, isSmsEvent, type EventRow } from './payload.js';
import { WEBHOOK_KIND } from './webhook.entity.js';
import { WebhookRepository, type NewDelivery, type WebhookRow } from './webhook.repository.js';

/** Events taken per transaction: enough to amortise the round trips, small enough to keep locks short. */
export const DISPATCH_BATCH = 200;

/** The plan on which `activity.deferred` is not delivered (SPEC.md Limits: paid plans only). */
const FREE_PLAN: Plan = 'free';

/** The SMS number an `sms.*` event belongs to (events/sms-events.ts payload). */
function smsNumberOf(event: EventRow): string | null {
  const id = (event.payload as { sms_number_id?: unknown }).sms_number_id;
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
 */
export function targetsOf(event: EventRow, webhooks: WebhookRow[]): WebhookRow[] {
  const sms = isSmsEvent(event.type);
  const smsNumber = sms ? smsNumberOf(event) : null;
  return webhooks.filter((w) => {
    if (!w.events.includes(event.type)) return false;
    if (new Date(w.created_at).getTime() > new Date(event.created_at).getTime()) return false;
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
 * Turns one batch of undispatched events into deliveries, in one transaction: the events are
 * locked (skip locked, so several workers share the backlog), one delivery is written per
 * subscribed webhook (unique per webhook and event, so a re-run writes nothing twice), and the
 * events are marked dispatched. Returns how many events were taken.
 */
export async function dispatchBatch(em: EntityManager, limit = DISPATCH_BATCH): Promise<number> {
  return em.transactional(async (tx) => {
    const repo = new WebhookRepository(tx);
    const events = await repo.lockUndispatched(limit);
    if (!events.length) return 0;
    // A paused or disabled webhook gets no new deliveries.
    const webhooks = await repo.candidates({
      types: [...new Set(events.map((e) => e.type))],
      domains: [...new Set(events.filter((e) => e.domain_id).map((e) => e.domain_id!))],
      accounts: [...new Set(events.filter((e) => !e.domain_id && e.account_id && !isSmsEvent(e.type)).map((e) => e.account_id!))],
      smsNumbers: [...new Set(events.filter((e) => isSmsEvent(e.type)).map(smsNumberOf).filter((n) => n !== null))],
      platformWide: events.some((e) => !e.domain_id && !e.account_id),
    });
    const now = new Date().toISOString();
    const rows: NewDelivery[] = events.flatMap((event) =>
      targetsOf(event, webhooks).map((w) => ({
        id: `msg_${newId(24)}`,
        webhook_id: w.id,
        event_id: event.id,
        type: event.type,
        body: deliveryBody(event, w),
      })),
    );
    if (rows.length) await repo.insertDeliveries(rows, now);
    await repo.markDispatched(events.map((e) => e.id), now);
    return events.length;
  });
}

/** Dispatches until the backlog is empty or the time budget is spent. */
export async function dispatchEvents(em: EntityManager, budgetMs = 20_000): Promise<number> {
  const stop = Date.now() + budgetMs;
  let total = 0;
  for (;;) {
    const n = await dispatchBatch(em.fork());
    total += n;
    if (n < DISPATCH_BATCH || Date.now() > stop) return total;
  }
}

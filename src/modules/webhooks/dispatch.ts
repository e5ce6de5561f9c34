import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { deliveryBody, isSmsEvent, type EventRow } from './payload.js';

/** Events taken per transaction: enough to amortise the round trips, small enough to keep locks short. */
export const DISPATCH_BATCH = 200;

/** A text[] parameter, sent as JSON so no value needs escaping. */
const TEXT_ARRAY = 'array(select jsonb_array_elements_text(?::jsonb))';

/** Plans on which `activity.deferred` is delivered (SPEC.md Limits: paid plans only). */
const FREE_PLAN = 'free';

interface WebhookRow {
  id: string;
  account_id: string;
  kind: 'email' | 'sms';
  domain_id: string | null;
  sms_number_id: string | null;
  url: string;
  events: string[];
  created_at: Date;
  plan: string;
}

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
    if (sms) return w.kind === 'sms' && w.sms_number_id === smsNumber && w.account_id === event.account_id;
    if (w.kind !== 'email') return false;
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
    const events: EventRow[] = await tx.execute(
      `select id, account_id, domain_id, type, payload, created_at from domain_events
        where dispatched_at is null order by created_at, id limit ? for update skip locked`,
      [limit],
    );
    if (!events.length) return 0;
    const types = [...new Set(events.map((e) => e.type))];
    const domains = [...new Set(events.filter((e) => e.domain_id).map((e) => e.domain_id!))];
    const accounts = [
      ...new Set(events.filter((e) => !e.domain_id && e.account_id && !isSmsEvent(e.type)).map((e) => e.account_id!)),
    ];
    const smsNumbers = [...new Set(events.filter((e) => isSmsEvent(e.type)).map(smsNumberOf).filter((n) => n !== null))];
    const platformWide = events.some((e) => !e.domain_id && !e.account_id);
    // A paused or disabled webhook gets no new deliveries.
    const webhooks: WebhookRow[] = await tx.execute(
      `select w.id, w.account_id, w.kind, w.domain_id, w.sms_number_id, w.url, w.events, w.created_at, a.plan
         from webhooks w join accounts a on a.id = w.account_id
        where w.enabled and w.paused_reason is null and w.kind in ('email', 'sms') and w.events && ${TEXT_ARRAY}
          and (w.domain_id = any(${TEXT_ARRAY}) or w.account_id = any(${TEXT_ARRAY})
               or w.sms_number_id = any(${TEXT_ARRAY}) or ?::boolean)`,
      [JSON.stringify(types), JSON.stringify(domains), JSON.stringify(accounts), JSON.stringify(smsNumbers), platformWide],
    );
    const now = new Date().toISOString();
    const rows = events.flatMap((event) =>
      targetsOf(event, webhooks).map((w) => ({
        id: `msg_${newId(24)}`,
        webhook_id: w.id,
        event_id: event.id,
        type: event.type,
        body: deliveryBody(event, w),
      })),
    );
    if (rows.length) {
      await tx.execute(
        `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
         select id, webhook_id, event_id, type, body, 'pending', 0, ?::timestamptz, ?::timestamptz, ?::timestamptz
           from jsonb_to_recordset(?::jsonb) as x(id text, webhook_id text, event_id text, type text, body text)
         on conflict (webhook_id, event_id) do nothing`,
        [now, now, now, JSON.stringify(rows)],
      );
    }
    await tx.execute(`update domain_events set dispatched_at = ?::timestamptz where id = any(${TEXT_ARRAY})`, [
      now,
      JSON.stringify(events.map((e) => e.id)),
    ]);
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

import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, sortableId } from '../../lib/ids.js';
import type { SmsInboundText } from '../sms/sms.provider.js';
import { SmsRepository } from '../sms/sms.repository.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { WebhookRepository } from '../webhooks/webhook.repository.js';
import { keywordStatus, routeMatches } from './sms-inbound.match.js';
import { SmsInboundRepository } from './sms-inbound.repository.js';
import { isoTimestamp } from '../../lib/timestamps.js';

export const SMS_INBOUND_EVENT = 'sms.inbound';

export type ReceiveOutcome = 'stored' | 'duplicate' | 'unknown_number';

/** What one received text became: with `stored`, its id and how many routes it is forwarded to. */
export interface Received {
  outcome: ReceiveOutcome;
  id?: string;
  forwarded: number;
}

interface Stored {
  id: string;
  routeId: string;
  numberId: string;
  text: SmsInboundText;
  at: Date;
}

/**
 * What a route's forward_url receives (SPEC.md leaves it open): the event envelope of SMS
 * webhooks, naming the route and the number, with the text in `data`.
 */
export function forwardBody(m: Stored): string {
  const at = isoTimestamp(m.at);
  return JSON.stringify({
    type: SMS_INBOUND_EVENT,
    sms_inbound_id: m.routeId,
    sms_number_id: m.numberId,
    created_at: at,
    data: { id: m.id, from: m.text.from, to: m.text.to, text: m.text.text, created_at: at },
  });
}

/**
 * Takes one text the provider received for one of our numbers, in one transaction: the message
 * is stored once per provider id (the provider retries until it gets an answer), the sender's
 * recipient row is ensured (a STOP or START keyword sets its status), and every live route of
 * the number whose filter takes the text gets a pending delivery, which the webhook engine then
 * POSTs signed with the route's secret and retries on failure.
 */
export async function receiveSmsInbound(em: EntityManager, given: SmsInboundText, at = new Date()): Promise<Received> {
  const number = await em.findOne(SmsNumber, { telephone_number: given.to });
  if (!number) return { outcome: 'unknown_number', forwarded: 0 };
  const accountId = number.account.id;
  // PostgreSQL text cannot hold NUL; no phone sends one.
  const text = { ...given, text: given.text.replace(/\u0000/g, '') };
  const now = at.toISOString();
  return em.transactional(async (tx) => {
    const inbound = new SmsInboundRepository(tx);
    const id = newId();
    const row = { id, accountId, smsNumberId: number.id, from: text.from, to: text.to, text: text.text, providerId: text.providerId, at: now };
    if (!(await inbound.insertMessage(row))) return { outcome: 'duplicate', forwarded: 0 };
    await new SmsRepository(tx).recordSender(accountId, text.from, keywordStatus(text.text), now);
    const deliveries = (await inbound.liveRoutes(number.id))
      .filter((r) => routeMatches(r, text.text))
      .map((r) => ({
        id: `msg_${sortableId(24)}`,
        webhook_id: r.webhook_id,
        event_id: id,
        type: SMS_INBOUND_EVENT,
        body: forwardBody({ id, routeId: r.id, numberId: number.id, text, at }),
      }));
    // Pending deliveries: the engine POSTs them signed with each route's secret, and retries them.
    if (deliveries.length) await new WebhookRepository(tx).insertDeliveries(deliveries, now);
    return { outcome: 'stored', id, forwarded: deliveries.length };
  });
}

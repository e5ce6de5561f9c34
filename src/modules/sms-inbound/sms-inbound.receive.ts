import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { SmsInboundText } from '../sms/provider.js';
import { keywordStatus, routeMatches, type RouteFilter } from './sms-inbound.match.js';
import { LIVE } from './sms-inbound.service.js';
import { isoTimestamp } from '../../lib/timestamps.js';

export const SMS_INBOUND_EVENT = 'sms.inbound';

export type ReceiveOutcome = 'stored' | 'duplicate' | 'unknown_number';

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
export async function receiveSmsInbound(em: EntityManager, given: SmsInboundText, at = new Date()): Promise<ReceiveOutcome> {
  const [number] = await em.execute<{ id: string; account_id: string }[]>(
    'select id, account_id from sms_numbers where telephone_number = ?',
    [given.to],
  );
  if (!number) return 'unknown_number';
  // PostgreSQL text cannot hold NUL; no phone sends one.
  const text = { ...given, text: given.text.replace(/\u0000/g, '') };
  const now = at.toISOString();
  return em.transactional(async (tx) => {
    const id = newId();
    const inserted = await tx.execute(
      `insert into sms_inbound_messages (id, created_at, updated_at, account_id, sms_number_id, "from", "to", text, provider_id)
       values (?, ?::timestamptz, ?::timestamptz, ?, ?, ?, ?, ?, ?) on conflict (provider_id) do nothing returning id`,
      [id, now, now, number.account_id, number.id, text.from, text.to, text.text, text.providerId],
    );
    if (!inserted.length) return 'duplicate';

    const status = keywordStatus(text.text);
    await tx.execute(
      `insert into sms_recipients (id, created_at, updated_at, account_id, number, status)
       values (?, ?::timestamptz, ?::timestamptz, ?, ?, ?)
       on conflict (account_id, number) do ${status ? 'update set status = excluded.status, updated_at = excluded.updated_at' : 'nothing'}`,
      [newId(), now, now, number.account_id, text.from, status ?? 'active'],
    );

    const routes = await tx.execute<(RouteFilter & { id: string; webhook_id: string })[]>(
      `select r.id, r.webhook_id, r.filter_comparer, r.filter_value
         from sms_inbounds r join webhooks w on w.id = r.webhook_id
        where r.sms_number_id = ? and ${LIVE}`,
      [number.id],
    );
    const deliveries = routes
      .filter((r) => routeMatches(r, text.text))
      .map((r) => ({
        id: `msg_${newId(24)}`,
        webhook_id: r.webhook_id,
        body: forwardBody({ id, routeId: r.id, numberId: number.id, text, at }),
      }));
    if (deliveries.length) {
      await tx.execute(
        `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
         select x.id, x.webhook_id, ?, ?, x.body, 'pending', 0, ?::timestamptz, ?::timestamptz, ?::timestamptz
           from jsonb_to_recordset(?::jsonb) as x(id text, webhook_id text, body text)`,
        [id, SMS_INBOUND_EVENT, now, now, now, JSON.stringify(deliveries)],
      );
    }
    return 'stored';
  });
}

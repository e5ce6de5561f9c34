import type { EntityManager } from '@mikro-orm/postgresql';
import { offsetOf, type PageQuery } from '../../core/page.js';
import type { RouteFilter } from './sms-inbound.match.js';

/** SQL over `sms_inbounds r join webhooks w`: on, and its target not paused by the engine (what `enabled` shows). */
const LIVE = 'r.enabled and w.enabled and w.paused_reason is null';

export interface LiveRoute extends RouteFilter {
  id: string;
  webhook_id: string;
}

export interface InboundMessageRow {
  id: string;
  accountId: string;
  smsNumberId: string;
  from: string;
  to: string;
  text: string;
  providerId: string | null;
  /** ISO time, the same for every row the text writes. */
  at: string;
}

/** The SQL of SMS inbound routes and of the texts they receive (their forwards are the webhook engine's deliveries). */
export class SmsInboundRepository {
  constructor(private readonly em: EntityManager) {}

  /** The ids of one page of the account's routes, newest first; `enabled` as the record shows it. */
  async pageIds(accountId: string, filter: { smsNumberId?: string | null; enabled?: boolean | null }, page: PageQuery): Promise<string[]> {
    const where = ['r.account_id = ?'];
    const params: (string | number | boolean)[] = [accountId];
    if (filter.smsNumberId) {
      where.push('r.sms_number_id = ?');
      params.push(filter.smsNumberId);
    }
    if (filter.enabled != null) {
      where.push(`(${LIVE}) = ?`);
      params.push(filter.enabled);
    }
    const rows = await this.em.execute<{ id: string }[]>(
      `select r.id from sms_inbounds r join webhooks w on w.id = r.webhook_id
        where ${where.join(' and ')} order by r.created_at desc, r.id desc limit ? offset ?`,
      [...params, page.limit, offsetOf(page)],
    );
    return rows.map((r) => r.id);
  }

  /** Stores the text once per provider message id: false when that id was stored before (a provider retry). */
  async insertMessage(m: InboundMessageRow): Promise<boolean> {
    const inserted = await this.em.execute(
      `insert into sms_inbound_messages (id, created_at, updated_at, account_id, sms_number_id, "from", "to", text, provider_id)
       values (?, ?::timestamptz, ?::timestamptz, ?, ?, ?, ?, ?, ?) on conflict (provider_id) do nothing returning id`,
      [m.id, m.at, m.at, m.accountId, m.smsNumberId, m.from, m.to, m.text, m.providerId],
    );
    return inserted.length > 0;
  }

  /** The number's routes that take texts now, with their filters. */
  liveRoutes(smsNumberId: string): Promise<LiveRoute[]> {
    return this.em.execute<LiveRoute[]>(
      `select r.id, r.webhook_id, r.filter_comparer, r.filter_value
         from sms_inbounds r join webhooks w on w.id = r.webhook_id
        where r.sms_number_id = ? and ${LIVE}`,
      [smsNumberId],
    );
  }
}

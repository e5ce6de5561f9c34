import type { EntityManager } from '@mikro-orm/postgresql';
import { offsetOf, type PageQuery } from '../../core/page.js';
import { sqlRows, Where } from '../../db/sql.js';
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
    const where = new Where().add('r.account_id = ?', accountId);
    if (filter.smsNumberId) where.add('r.sms_number_id = ?', filter.smsNumberId);
    if (filter.enabled != null) where.add(`(${LIVE}) = ?`, filter.enabled);
    const rows = await sqlRows<{ id: string }>(
      this.em,
      `select r.id from sms_inbounds r join webhooks w on w.id = r.webhook_id
        where ${where.sql} order by r.created_at desc, r.id desc limit ${where.param(page.limit)} offset ${where.param(offsetOf(page))}`,
      where.params,
    );
    return rows.map((r) => r.id);
  }

  /** Stores the text once per provider message id: false when that id was stored before (a provider retry). */
  async insertMessage(m: InboundMessageRow): Promise<boolean> {
    const inserted = await sqlRows(
      this.em,
      `insert into sms_inbound_messages (id, created_at, updated_at, account_id, sms_number_id, "from", "to", text, provider_id)
       values ($1, $2::timestamptz, $2::timestamptz, $3, $4, $5, $6, $7, $8) on conflict (provider_id) do nothing returning id`,
      [m.id, m.at, m.accountId, m.smsNumberId, m.from, m.to, m.text, m.providerId],
    );
    return inserted.length > 0;
  }

  /** The number's routes that take texts now, with their filters. */
  liveRoutes(smsNumberId: string): Promise<LiveRoute[]> {
    return sqlRows<LiveRoute>(
      this.em,
      `select r.id, r.webhook_id, r.filter_comparer, r.filter_value
         from sms_inbounds r join webhooks w on w.id = r.webhook_id
        where r.sms_number_id = $1 and ${LIVE}`,
      [smsNumberId],
    );
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sortablePrefix } from '../../lib/ids.js';
import { likeEscape, sqlRow, sqlRows, textArray, Where } from '../../db/sql.js';
import { LIFECYCLE, lifecycleRank } from '../activity/activity.repository.js';
import { WEBHOOK_KIND } from '../webhooks/webhook.entity.js';
import type { EmailRow, Interaction } from './email.mapper.js';
import { messageShown } from '../messages/message.status.js';

/** The columns of a log row: the email, with its message's sender and template. */
const COLUMNS = `e.id, e.message_id, e.domain_id, m.template_id, m.from_email, m.from_name, e.to_email, e.to_name,
  e.subject, e.tags, e.status, e.suppression_reason, e.opened_at, e.clicked_at, e.unsubscribed_at, e.created_at, e.updated_at,
  m.headers`;

const FROM = `emails e join messages m on m.id = e.message_id and ${messageShown('m')}`;

const INTERACTION_SQL: Record<Interaction, string> = {
  opened: 'e.opened_at is not null',
  clicked: 'e.clicked_at is not null',
  unsubscribed: 'e.unsubscribed_at is not null',
  no_interaction: '(e.opened_at is null and e.clicked_at is null and e.unsubscribed_at is null)',
};

/** What the email log is filtered by; unset parts do not filter. */
export interface EmailLogFilter {
  accountId: string;
  from?: Date | null;
  /** Exclusive. */
  before?: Date | null;
  /** The domains it may show (the one asked for, or a limited caller's); unset or null: all of the account's. */
  domainIds?: readonly string[] | null;
  statuses?: readonly string[] | null;
  /** Any of them. */
  interactions?: readonly Interaction[] | null;
  /** The recipient address, in any case, spaces around it ignored. */
  recipient?: string | null;
  /** Part of the subject, in any case. */
  subject?: string | null;
  tag?: string | null;
  templateId?: string | null;
  messageId?: string | null;
}

/** One email with its content (the message's, or its template's), and its recipient. */
export type EmailDetailRow = EmailRow & {
  html: string | null;
  text: string | null;
  /** Delivery dropped the message's bodies (track_content off): no content is shown. */
  content_cleared: boolean;
  /** The receiving server's last answer (or the error) for it. */
  last_response: string | null;
  r_id: string;
  r_email: string;
  r_created_at: unknown;
  r_updated_at: unknown;
  r_deleted_at: unknown;
};

export interface EmailDeliveryRow {
  id: string;
  webhook_id: string;
  webhook_name: string;
  type: string;
  state: string;
  attempts: number;
  last_status: number | null;
  created_at: unknown;
}

export interface EmailActivityRow {
  id: string;
  type: string;
  suppression_reason: string | null;
  created_at: unknown;
}

/** The email log: emails of accepted sends, read through (account_id, created_at). */
export class EmailLogRepository {
  constructor(private readonly em: EntityManager) {}

  /** Newest first. */
  list(f: EmailLogFilter, page: { limit: number; offset: number }): Promise<EmailRow[]> {
    const w = new Where().add('e.account_id = ?', f.accountId);
    if (f.from) w.add('e.created_at >= ?', f.from);
    if (f.before) w.add('e.created_at < ?', f.before);
    if (f.domainIds) w.add('e.domain_id = any(?::text[])', textArray(f.domainIds));
    if (f.statuses?.length) w.add('e.status = any(?::text[])', textArray(f.statuses));
    if (f.interactions?.length) w.add(`(${[...new Set(f.interactions)].map((i) => INTERACTION_SQL[i]).join(' or ')})`);
    if (f.recipient) w.add('lower(e.to_email) = lower(?)', f.recipient.trim());
    if (f.subject) w.add(`e.subject ilike ? escape '\\'`, `%${likeEscape(f.subject)}%`);
    if (f.tag) w.add('? = any(e.tags)', f.tag);
    if (f.templateId) w.add('m.template_id = ?', f.templateId);
    if (f.messageId) w.add('e.message_id = ?', f.messageId);
    return sqlRows<EmailRow>(
      this.em,
      `select ${COLUMNS} from ${FROM} where ${w.sql}
        order by e.created_at desc, e.id desc limit ${w.param(page.limit)} offset ${w.param(page.offset)}`,
      w.params,
    );
  }

  /** One email of the account, null when there is none. */
  async detail(emailId: string, accountId: string): Promise<EmailDetailRow | null> {
    return sqlRow<EmailDetailRow>(
      this.em,
      `select ${COLUMNS}, coalesce(m.html, tr.html, t.html) as html, coalesce(m.text, tr.text, t.text) as text,
              m.content_cleared_at is not null as content_cleared, e.last_response, r.id as r_id, r.email as r_email, r.created_at as r_created_at,
              r.updated_at as r_updated_at, r.deleted_at as r_deleted_at
         from ${FROM} join recipients r on r.id = e.recipient_id left join templates t on t.id = m.template_id
         -- What was sent: the translation in the send's language when there is one (as delivery reads it).
         left join template_translations tr on tr.template_id = m.template_id and tr.language = m.language
        where e.id = $1 and e.account_id = $2`,
      [emailId, accountId],
    );
  }

  /** The email's activity, in the order of its life. */
  activityOf(emailId: string): Promise<EmailActivityRow[]> {
    return sqlRows<EmailActivityRow>(
      this.em,
      `select a.id, a.type, a.suppression_reason, a.created_at from activities a where a.email_id = $1
        order by a.created_at, ${lifecycleRank('$2')}, a.id`,
      [emailId, LIFECYCLE],
    );
  }

  /**
   * The webhook deliveries of the email's events, newest first, at most `limit`. An activity's id
   * is its event's id (activityWrites), which webhook_deliveries.event_id holds: the email
   * webhooks of the account on the email's domain, crossed with the email's activities, probe the
   * (webhook_id, event_id) index pair by pair, in the weeks of deliveries from the email's day on
   * (ids start with their time, db/partitions.ts; a day earlier for clocks apart).
   */
  webhookDeliveriesOf(email: { id: string; domainId: string; createdAt: Date }, accountId: string, limit: number): Promise<EmailDeliveryRow[]> {
    const firstId = `msg_${sortablePrefix(email.createdAt.getTime() - 86_400_000)}`;
    return sqlRows<EmailDeliveryRow>(
      this.em,
      `select d.id, d.webhook_id, w.name as webhook_name, d.type, d.state, d.attempts, d.last_status, d.created_at
         from webhooks w
         join activities a on a.email_id = $1
         join webhook_deliveries d on d.webhook_id = w.id and d.event_id = a.id and d.id >= $6
        where w.account_id = $2 and w.domain_id = $3 and w.kind = $4
        order by d.created_at desc, d.id desc limit $5`,
      [email.id, accountId, email.domainId, WEBHOOK_KIND.email, limit, firstId],
    );
  }

  /** What the capture transport kept of the email, the latest copy. */
  async captured(emailId: string): Promise<{ html: string | null; text: string | null; raw: string | null } | null> {
    return sqlRow<{ html: string | null; text: string | null; raw: string | null }>(
      this.em,
      'select html, text, raw from captured_mails where email_id = $1 order by created_at desc limit 1',
      [emailId],
    );
  }

  /** The emails of one message, in the order of its `to` list. */
  ofMessage(messageId: string): Promise<EmailRow[]> {
    return sqlRows<EmailRow>(this.em, `select ${COLUMNS} from ${FROM} where e.message_id = $1 order by e.position, e.id`, [messageId]);
  }
}

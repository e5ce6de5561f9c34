import type { EntityManager } from '@mikro-orm/postgresql';
import { textArray } from '../../db/sql.js';
import { PENDING_EMAIL, type EmailStatus } from '../messages/status.js';

/**
 * How an email's status counts in template_stats (every email counts in `total`):
 * - queued: still to be delivered (PENDING_EMAIL)
 * - sent: it left; `delivered` is also counted on its own
 * - rejected: it will not arrive
 * `last_email_sent_at` is the creation time of the newest email that was sent.
 */
const SENT = ['sent', 'delivered'] as const satisfies readonly EmailStatus[];
const DELIVERED = 'delivered' satisfies EmailStatus;
const REJECTED = ['suppressed', 'rejected', 'cancelled', 'hard_bounced', 'soft_bounced'] as const satisfies readonly EmailStatus[];

export interface TemplateStatsRow {
  total: number;
  queued: number;
  sent: number;
  rejected: number;
  delivered: number;
  last_email_sent_at: unknown;
}

export class TemplateRepository {
  constructor(private readonly em: EntityManager) {}

  /** What the account's emails sent with the template have become, in one pass over them. */
  async stats(templateId: string, accountId: string): Promise<TemplateStatsRow> {
    const sent = textArray(SENT);
    const [stats] = await this.em.execute<TemplateStatsRow[]>(
      `select count(*)::int as total,
          count(*) filter (where e.status = any(?::text[]))::int as queued,
          count(*) filter (where e.status = any(?::text[]))::int as sent,
          count(*) filter (where e.status = any(?::text[]))::int as rejected,
          count(*) filter (where e.status = ?)::int as delivered,
          max(e.created_at) filter (where e.status = any(?::text[])) as last_email_sent_at
        from emails e join messages m on m.id = e.message_id
        where m.template_id = ? and m.account_id = ?`,
      [textArray(PENDING_EMAIL), sent, textArray(REJECTED), DELIVERED, sent, templateId, accountId],
    );
    return stats;
  }
}

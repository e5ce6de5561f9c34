import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRow, sqlRows } from '../../db/sql.js';
import type { ActivityEmail } from '../../modules/activity/activity.record.js';
import type { ActivityType } from '../../modules/activity/activity.entity.js';
import type { EmailStatus } from '../../modules/messages/message.status.js';

/** An email a report is about, locked, with what recording its activity and suppression needs. */
export type ReportedEmail = ActivityEmail & { status: string; recipient_id: string };

/** The statuses a bounce report sets (sending owns them; the type alone is borrowed). */
export type BounceStatus = Extract<EmailStatus, 'hard_bounced' | 'soft_bounced'>;

const COMPLAINT: ActivityType = 'spam_complaints';

/** The bounce pipeline's SQL over the emails and activities it reports on. */
export class BounceRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whether `domain` is one of ours whose return-path subdomain is `sub`, or which sent the email `emailId`. */
  async isReturnPathOf(domain: string, sub: string, emailId: string): Promise<boolean> {
    const rows = await sqlRows(
      this.em,
      `select 1 from domains d
        where d.name = $1
          and (d.settings->>'return_path_subdomain' = $2 or exists (select 1 from emails e where e.id = $3 and e.domain_id = d.id))
        limit 1`,
      [domain, sub, emailId],
    );
    return rows.length > 0;
  }

  /** Whether an email with this id exists (a return path at RETURN_PATH_TARGET's host names one). */
  async emailExists(emailId: string): Promise<boolean> {
    const rows = await sqlRows(this.em, 'select 1 from emails where id = $1', [emailId]);
    return rows.length > 0;
  }

  /** The email with this id, locked until the transaction ends (two copies of a report queue up). */
  async lockEmail(id: string): Promise<ReportedEmail | null> {
    return sqlRow<ReportedEmail>(
      this.em,
      `select e.id, e.account_id, e.domain_id, e.message_id, e.subject, e.to_email, e.tags, e.status, e.recipient_id,
              (select m.purge_after::text from messages m where m.id = e.message_id) as purge_after
         from emails e where e.id = $1 for update of e`,
      [id],
    );
  }

  /** The email sent with this Message-ID header. */
  async emailIdBySmtpMessageId(messageId: string): Promise<string | null> {
    const row = await sqlRow<{ id: string }>(this.em, 'select id from emails where smtp_message_id = $1 limit 1', [messageId]);
    return row?.id ?? null;
  }

  /** Whether a complaint was already recorded for the email. */
  async hasComplaint(emailId: string): Promise<boolean> {
    const seen = await sqlRow(this.em, 'select 1 from activities where email_id = $1 and type = $2 limit 1', [emailId, COMPLAINT]);
    return seen !== null;
  }

  async setBounced(emailId: string, status: BounceStatus, response: string): Promise<void> {
    await sqlCount(this.em, 'update emails set status = $1, last_response = $2, updated_at = now() where id = $3', [status, response, emailId]);
  }
}

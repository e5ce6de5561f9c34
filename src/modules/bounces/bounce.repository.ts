import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityEmail } from '../activity/record.js';
import type { ActivityType } from '../activity/activity.entity.js';
import type { EmailStatus } from '../messages/status.js';

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
    const rows = await this.em.execute<unknown[]>(
      `select 1 from domains d
        where d.name = ?
          and (d.settings->>'return_path_subdomain' = ? or exists (select 1 from emails e where e.id = ? and e.domain_id = d.id))
        limit 1`,
      [domain, sub, emailId],
    );
    return rows.length > 0;
  }

  /** Whether an email with this id exists (a return path at RETURN_PATH_TARGET's host names one). */
  async emailExists(emailId: string): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>('select 1 from emails where id = ?', [emailId]);
    return rows.length > 0;
  }

  /** The email with this id, locked until the transaction ends (two copies of a report queue up). */
  async lockEmail(id: string): Promise<ReportedEmail | null> {
    const [row] = await this.em.execute<ReportedEmail[]>(
      `select e.id, e.account_id, e.domain_id, e.message_id, e.subject, e.to_email, e.tags, e.status, e.recipient_id
         from emails e where e.id = ? for update`,
      [id],
    );
    return row ?? null;
  }

  /** The email sent with this Message-ID header. */
  async emailIdBySmtpMessageId(messageId: string): Promise<string | null> {
    const [row] = await this.em.execute<{ id: string }[]>('select id from emails where smtp_message_id = ? limit 1', [messageId]);
    return row?.id ?? null;
  }

  /** Whether a complaint was already recorded for the email. */
  async hasComplaint(emailId: string): Promise<boolean> {
    const [seen] = await this.em.execute<unknown[]>(`select 1 from activities where email_id = ? and type = ? limit 1`, [emailId, COMPLAINT]);
    return !!seen;
  }

  async setBounced(emailId: string, status: BounceStatus, response: string): Promise<void> {
    await this.em.execute('update emails set status = ?, last_response = ?, updated_at = now() where id = ?', [status, response, emailId]);
  }
}

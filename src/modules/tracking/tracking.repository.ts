import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRow } from '../../db/sql.js';
import type { ActivityEmail } from '../activity/activity.record.js';

/** An email as tracking reads it: what its activities need, its status and what was recorded first. */
export interface TrackedEmail extends ActivityEmail {
  status: string;
  recipient_id: string;
  opened_at: Date | null;
  clicked_at: Date | null;
  unsubscribed_at: Date | null;
}

/** The first-time stamps of an email. */
export type Stamp = 'opened_at' | 'clicked_at' | 'unsubscribed_at';

export class TrackingRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * The email, its row held until the transaction ends. `no key update` is what the stamp below
   * takes anyway; unlike `for update` it does not block other writers inserting activities that
   * reference this email.
   */
  async lock(emailId: string): Promise<TrackedEmail | null> {
    return sqlRow<TrackedEmail>(
      this.em,
      `select e.id, e.account_id, e.domain_id, e.message_id, e.subject, e.to_email, e.tags, e.status, e.recipient_id,
              e.opened_at, e.clicked_at, e.unsubscribed_at,
              (select m.purge_after::text from messages m where m.id = e.message_id) as purge_after
         from emails e where e.id = $1 for no key update of e`,
      [emailId],
    );
  }

  /** What an unsubscribe link shows before anything is written. */
  async unsubscribeState(emailId: string): Promise<Pick<TrackedEmail, 'status' | 'to_email' | 'unsubscribed_at'> | null> {
    return sqlRow<Pick<TrackedEmail, 'status' | 'to_email' | 'unsubscribed_at'>>(
      this.em,
      'select status, to_email, unsubscribed_at from emails where id = $1',
      [emailId],
    );
  }

  /** Sets each stamp not set yet (the first open, click or unsubscribe stays). */
  async stamp(emailId: string, stamps: Stamp[]): Promise<void> {
    if (!stamps.length) return;
    const set = stamps.map((c) => `${c} = coalesce(${c}, now())`).join(', ');
    await sqlCount(this.em, `update emails set ${set}, updated_at = now() where id = $1`, [emailId]);
  }

  /**
   * Whether a request on `label.parent` may use a token of this email: yes unless that host is
   * some domain's tracking host (`<custom_tracking_subdomain>.<name>`) other than the email's own
   * domain's. Domain names and subdomains are stored lowercase; `domains.name` is unique (indexed).
   */
  async hostHonours(emailId: string, label: string, parent: string): Promise<boolean> {
    const row = await sqlRow<{ ok: boolean }>(
      this.em,
      `select not exists (select 1 from domains d where d.name = $1 and lower(d.settings->>'custom_tracking_subdomain') = $2)
           or exists (select 1 from emails e join domains d on d.id = e.domain_id
                       where e.id = $3 and d.name = $1 and lower(d.settings->>'custom_tracking_subdomain') = $2) as ok`,
      [parent, label, emailId],
    );
    return row?.ok ?? false;
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { ActivityData } from '../activity/activity.entity.js';
import { recordActivities, type ActivityEmail, type NewActivity } from '../activity/record.js';

/** Emails that went out (or are on their way out again): only these can be read or clicked. */
const TRACKABLE = new Set(['sent', 'delivered', 'soft_bounced', 'hard_bounced', 'deferred']);

export const UNSUBSCRIBE_REASON = 'Unsubscribed by the recipient';

interface EmailRow extends ActivityEmail {
  status: string;
  recipient_id: string;
  opened_at: Date | null;
  clicked_at: Date | null;
  unsubscribed_at: Date | null;
}

export type ClickOutcome = 'missing' | 'ignored' | 'recorded';
export type UnsubscribeOutcome = { kind: 'missing' } | { kind: 'done' | 'already'; email: string };

/**
 * Records what recipients do with an email. Each hit is one transaction that first locks the
 * email's row, so concurrent hits on the same email see each other's first open or click: the
 * `_unique` activities are recorded exactly once.
 */
export class TrackingService {
  constructor(private readonly em: EntityManager) {}

  private async lock(em: EntityManager, emailId: string): Promise<EmailRow | null> {
    // `no key update` is what the update below takes anyway; unlike `for update` it does not
    // block other writers inserting activities that reference this email.
    const rows = await em.execute<EmailRow[]>(
      `select id, account_id, domain_id, message_id, subject, to_email, tags, status, recipient_id,
              opened_at, clicked_at, unsubscribed_at
         from emails where id = ? for no key update`,
      [emailId],
    );
    return rows[0] ?? null;
  }

  private async stamp(em: EntityManager, emailId: string, columns: string[]): Promise<void> {
    if (!columns.length) return;
    const set = columns.map((c) => `${c} = coalesce(${c}, now())`).join(', ');
    await em.execute(`update emails set ${set}, updated_at = now() where id = ?`, [emailId]);
  }

  async open(emailId: string, data: ActivityData): Promise<void> {
    await this.em.transactional(async (em) => {
      const email = await this.lock(em, emailId);
      if (!email || !TRACKABLE.has(email.status)) return;
      const items: NewActivity[] = [{ email, type: 'opened', data }];
      if (!email.opened_at) items.push({ email, type: 'opened_unique', data });
      await this.stamp(em, email.id, email.opened_at ? [] : ['opened_at']);
      await recordActivities(em, items);
    });
  }

  /** A click is an open too when the email shows none yet (its images were blocked). */
  async click(emailId: string, url: string, data: ActivityData): Promise<ClickOutcome> {
    return this.em.transactional(async (em) => {
      const email = await this.lock(em, emailId);
      if (!email) return 'missing';
      if (!TRACKABLE.has(email.status)) return 'ignored';
      const items: NewActivity[] = [];
      const columns: string[] = [];
      if (!email.opened_at) {
        items.push({ email, type: 'opened', data }, { email, type: 'opened_unique', data });
        columns.push('opened_at');
      }
      const clickData = { ...data, url };
      items.push({ email, type: 'clicked', data: clickData });
      if (!email.clicked_at) {
        items.push({ email, type: 'clicked_unique', data: clickData });
        columns.push('clicked_at');
      }
      await this.stamp(em, email.id, columns);
      await recordActivities(em, items);
      return 'recorded';
    });
  }

  /** Who a link unsubscribes, and whether it already did; nothing is written. */
  async lookup(emailId: string): Promise<UnsubscribeOutcome> {
    const rows = await this.em.execute<EmailRow[]>('select status, to_email, unsubscribed_at from emails where id = ?', [emailId]);
    const email = rows[0];
    if (!email || !TRACKABLE.has(email.status)) return { kind: 'missing' };
    return { kind: email.unsubscribed_at ? 'already' : 'done', email: email.to_email };
  }

  async unsubscribe(emailId: string, data: ActivityData): Promise<UnsubscribeOutcome> {
    return this.em.transactional(async (em) => {
      const email = await this.lock(em, emailId);
      if (!email || !TRACKABLE.has(email.status)) return { kind: 'missing' } as const;
      if (email.unsubscribed_at) return { kind: 'already', email: email.to_email } as const;
      await this.stamp(em, email.id, ['unsubscribed_at']);
      await this.suppress(em, email);
      await recordActivities(em, [{ email, type: 'unsubscribed', data }]);
      return { kind: 'done', email: email.to_email } as const;
    });
  }

  /** Adds the recipient to the domain's unsubscribes list, unless it is there already. */
  private async suppress(em: EntityManager, email: EmailRow): Promise<void> {
    // The same lock the suppressions API takes before adding to this list of this domain.
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`suppressions:${email.account_id}:unsubscribes:${email.domain_id}`]);
    await em.execute(
      `insert into suppressions (id, created_at, updated_at, account_id, domain_id, list, recipient_id, reason)
       select ?, now(), now(), ?, ?, 'unsubscribes', ?, ?
        where not exists (
          select 1 from suppressions where domain_id = ? and list = 'unsubscribes' and recipient_id = ?)`,
      [newId(), email.account_id, email.domain_id, email.recipient_id, UNSUBSCRIBE_REASON, email.domain_id, email.recipient_id],
    );
  }
}

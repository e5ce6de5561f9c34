import { isIP } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityData } from '../activity/activity.entity.js';
import { recordActivities, type NewActivity } from '../activity/activity.record.js';
import { isIn, TRACKABLE_EMAIL } from '../messages/message.status.js';
import { suppressRecipient } from '../suppressions/suppression.add.js';
import { TrackingRepository, type Stamp, type TrackedEmail } from './tracking.repository.js';

export const UNSUBSCRIBE_REASON = 'Unsubscribed by the recipient';

export type ClickOutcome = 'missing' | 'ignored' | 'recorded';
export type UnsubscribeOutcome = { kind: 'missing' } | { kind: 'done' | 'already'; email: string };

/**
 * Records what recipients do with an email. Each hit is one transaction that first locks the
 * email's row, so concurrent hits on the same email see each other's first open or click: the
 * `_unique` activities are recorded exactly once.
 */
export class TrackingService {
  constructor(private readonly em: EntityManager) {}

  async open(emailId: string, data: ActivityData): Promise<void> {
    await this.em.transactional(async (em) => {
      const repo = new TrackingRepository(em);
      const email = await repo.lock(emailId);
      if (!email || !isIn(TRACKABLE_EMAIL, email.status)) return;
      const items: NewActivity[] = [{ email, type: 'opened', data }];
      if (!email.opened_at) items.push({ email, type: 'opened_unique', data });
      await repo.stamp(email.id, email.opened_at ? [] : ['opened_at']);
      await recordActivities(em, items);
    });
  }

  /** A click is an open too when the email shows none yet (its images were blocked). */
  async click(emailId: string, url: string, data: ActivityData): Promise<ClickOutcome> {
    return this.em.transactional(async (em) => {
      const repo = new TrackingRepository(em);
      const email = await repo.lock(emailId);
      if (!email) return 'missing';
      if (!isIn(TRACKABLE_EMAIL, email.status)) return 'ignored';
      const items: NewActivity[] = [];
      const columns: Stamp[] = [];
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
      await repo.stamp(email.id, columns);
      await recordActivities(em, items);
      return 'recorded';
    });
  }

  /**
   * A token is honoured on PUBLIC_URL's host (the caller checks that first, with no statement),
   * on its own domain's tracking host, and on a host that is no domain's tracking host (the api
   * reached by its address); on another domain's tracking host it is not: one account's links
   * never work under another account's domain.
   */
  async honoursOn(emailId: string, host: string): Promise<boolean> {
    const at = host.indexOf('.');
    if (at <= 0 || isIP(host)) return true;
    return new TrackingRepository(this.em).hostHonours(emailId, host.slice(0, at), host.slice(at + 1));
  }

  /** Who a link unsubscribes, and whether it already did; nothing is written. */
  async lookup(emailId: string): Promise<UnsubscribeOutcome> {
    const email = await new TrackingRepository(this.em).unsubscribeState(emailId);
    if (!email || !isIn(TRACKABLE_EMAIL, email.status)) return { kind: 'missing' };
    return { kind: email.unsubscribed_at ? 'already' : 'done', email: email.to_email };
  }

  async unsubscribe(emailId: string, data: ActivityData): Promise<UnsubscribeOutcome> {
    return this.em.transactional(async (em) => {
      const repo = new TrackingRepository(em);
      const email = await repo.lock(emailId);
      if (!email || !isIn(TRACKABLE_EMAIL, email.status)) return { kind: 'missing' } as const;
      if (email.unsubscribed_at) return { kind: 'already', email: email.to_email } as const;
      await repo.stamp(email.id, ['unsubscribed_at']);
      await this.suppress(em, email);
      await recordActivities(em, [{ email, type: 'unsubscribed', data }]);
      return { kind: 'done', email: email.to_email } as const;
    });
  }

  /** Adds the recipient to the domain's unsubscribes list, unless it is there already. */
  private async suppress(em: EntityManager, email: TrackedEmail): Promise<void> {
    await suppressRecipient(em, {
      accountId: email.account_id,
      domainId: email.domain_id,
      recipientId: email.recipient_id,
      list: 'unsubscribes',
      reason: UNSUBSCRIBE_REASON,
    });
  }
}

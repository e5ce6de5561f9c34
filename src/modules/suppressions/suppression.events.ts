import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from '../events/domain-event.entity.js';
import type { Suppression } from './suppression.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

export type HoldEventType = 'recipient.on_hold_added' | 'recipient.on_hold_removed';

/** Recorded through `em` so it commits or rolls back with the change to the on-hold list. */
export function holdEvent(em: EntityManager, type: HoldEventType, entry: Suppression, email: string): void {
  const domainId = entry.domain!.id;
  em.create(DomainEvent, {
    account_id: entry.account.id,
    domain_id: domainId,
    type,
    payload: {
      domain_id: domainId,
      object: 'on_hold_recipient',
      email,
      added_at: isoTimestamp(entry.created_at),
      on_hold_until: isoTimestamp(entry.on_hold_until!),
    },
  });
}

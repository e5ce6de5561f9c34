import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyToken } from '../../lib/secrets.js';
import { DomainEvent } from '../events/domain-event.entity.js';
import { SenderIdentity } from './identity.entity.js';
import { IDENTITY_TOKEN_PURPOSE } from './identity.mail.js';
import { senderIdentityJson } from './identity.type.js';

export const IDENTITY_VERIFIED_EVENT = 'sender_identity.verified';

export type ConfirmOutcome =
  | { kind: 'invalid' }
  | { kind: 'missing' }
  | { kind: 'verified' | 'already'; email: string };

/**
 * Opens a confirmation link. The row is locked while it is checked, so two clicks at once still
 * record one event.
 */
export async function confirmIdentity(em: EntityManager, appSecret: string, token: string): Promise<ConfirmOutcome> {
  const claim = verifyToken<{ id?: unknown; email?: unknown }>(appSecret, IDENTITY_TOKEN_PURPOSE, token);
  if (!claim || typeof claim.id !== 'string' || typeof claim.email !== 'string') return { kind: 'invalid' };
  const { id, email } = claim;
  return em.transactional(async (tx) => {
    const identity = await tx.findOne(SenderIdentity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!identity) return { kind: 'missing' };
    // A link sent to an earlier address proves nothing about the current one.
    if (identity.email !== email) return { kind: 'invalid' };
    if (identity.is_verified) return { kind: 'already', email };
    await tx.populate(identity, ['domain']);
    identity.is_verified = true;
    identity.verified_at = new Date();
    tx.create(DomainEvent, {
      account_id: identity.account.id,
      domain_id: identity.domain.id,
      type: IDENTITY_VERIFIED_EVENT,
      payload: { object: 'sender_identity', ...senderIdentityJson(identity) },
    });
    await tx.flush();
    return { kind: 'verified', email };
  });
}

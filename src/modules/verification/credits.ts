import type { EntityManager } from '@mikro-orm/postgresql';
import { EmailVerificationList } from './list.entity.js';
import { VerificationRepository } from './verification.repository.js';
import { errors } from '../../core/errors.js';

/**
 * Verification credits: one per checked address. A check that could not run (`failed`) costs
 * nothing: the single check is only charged when it has a result, the async one is charged when
 * accepted (the job cannot answer 402 later) and refunded if it ends `failed`.
 */

function paymentRequired(needed: number, balance: number) {
  const unit = needed === 1 ? 'credit' : 'credits';
  return errors.paymentRequired(`This request needs ${needed} verification ${unit}; the account has ${balance}.`);
}

/** 402 unless the account holds `needed` credits now (checked before spending time on a probe). */
export async function assertCredits(em: EntityManager, accountId: string, needed: number): Promise<void> {
  const has = await new VerificationRepository(em).creditBalance(accountId);
  if (has < needed) throw paymentRequired(needed, has);
}

/**
 * Takes the credits in one conditional UPDATE inside the caller's transaction, so two requests
 * racing for the last credit cannot both get it; 402 for the one that loses.
 */
export async function takeCredits(em: EntityManager, accountId: string, needed: number): Promise<void> {
  const repo = new VerificationRepository(em);
  if (!(await repo.takeCredits(accountId, needed))) throw paymentRequired(needed, await repo.creditBalance(accountId));
}

export async function refundCredits(em: EntityManager, accountId: string, credits: number): Promise<void> {
  await new VerificationRepository(em).addCredits(accountId, credits);
}

/**
 * Brings the reserved credits down to what the list actually used (addresses with a result other
 * than `failed`) and refunds the rest. Idempotent: a second call finds nothing left to refund.
 */
export async function settleCredits(tx: EntityManager, listId: string): Promise<void> {
  const { accountId, reserved, used } = await new VerificationRepository(tx).lockCreditUse(listId);
  const refund = reserved - used;
  if (refund <= 0) return;
  await tx.nativeUpdate(EmailVerificationList, { id: listId }, { credits_reserved: used });
  await refundCredits(tx, accountId, refund);
}

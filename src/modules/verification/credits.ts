import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../accounts/account.entity.js';
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

async function balance(em: EntityManager, accountId: string): Promise<number> {
  const account = await em.findOne(Account, { id: accountId }, { fields: ['verification_credits'] as never, disableIdentityMap: true });
  return account?.verification_credits ?? 0;
}

/** 402 unless the account holds `needed` credits now (checked before spending time on a probe). */
export async function assertCredits(em: EntityManager, accountId: string, needed: number): Promise<void> {
  const has = await balance(em, accountId);
  if (has < needed) throw paymentRequired(needed, has);
}

/**
 * Takes the credits in one conditional UPDATE inside the caller's transaction, so two requests
 * racing for the last credit cannot both get it; 402 for the one that loses.
 */
export async function takeCredits(em: EntityManager, accountId: string, needed: number): Promise<void> {
  const taken = await em.nativeUpdate(
    Account,
    { id: accountId, verification_credits: { $gte: needed } } as never,
    { verification_credits: raw('verification_credits - ?', [needed]) } as never,
  );
  if (!taken) throw paymentRequired(needed, await balance(em, accountId));
}

export async function refundCredits(em: EntityManager, accountId: string, credits: number): Promise<void> {
  await em.nativeUpdate(Account, { id: accountId }, { verification_credits: raw('verification_credits + ?', [credits]) } as never);
}

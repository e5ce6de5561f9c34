import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../services.js';
import { emailSingleVerifiedData, recordVerificationEvent } from '../events/verification-events.js';
import { verifyAddress, type CheckOutcome } from './check.js';
import { assertCredits, refundCredits, takeCredits } from './credits.js';
import { FAILED_RESULT, QUEUED_CHECK, statusOf, type VerificationResult } from './statuses.js';
import { EmailVerification } from './verification.entity.js';
import { verificationJob } from './verification.job.js';
import { type Actor } from '../../core/actor.js';

/** Verification is per account: a domain-limited token may use it, it reaches no domain's data. */
export class VerificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: AppServices,
  ) {}

  /**
   * Checks now, within VERIFY_TIMEOUT_MS. The balance is checked first so a request without
   * credits does not probe; the credit is taken with the stored result, unless it is `failed`.
   */
  async verify(auth: Actor, email: string): Promise<VerificationResult> {
    await assertCredits(this.em, auth.accountId, 1);
    const outcome = await verifyAddress(this.services, email);
    await this.em.transactional(async (tx) => {
      if (outcome.result !== FAILED_RESULT) await takeCredits(tx, auth.accountId, 1);
      tx.create(EmailVerification, { account: auth.accountId, kind: 'sync', address: email, ...resultColumns(outcome) });
    });
    return outcome.result;
  }

  /** Takes the credit, stores the queued check and its job in one transaction. */
  async verifyAsync(auth: Actor, email: string): Promise<EmailVerification> {
    return this.em.transactional(async (tx) => {
      await takeCredits(tx, auth.accountId, 1);
      const row = tx.create(EmailVerification, { account: auth.accountId, kind: 'async', address: email });
      await tx.flush();
      await enqueue(tx, this.services.boss, verificationJob, { verification_id: row.id });
      return row;
    });
  }

  async getAsync(auth: Actor, id: string): Promise<EmailVerification> {
    return findOwned(this.em, EmailVerification, auth, { id, kind: 'async' });
  }
}

function resultColumns(outcome: CheckOutcome) {
  return {
    status: statusOf(outcome.result),
    result: outcome.result,
    error: outcome.error ?? null,
    suggestion: outcome.suggestion ?? null,
    mx: outcome.mx ?? null,
    verified_at: new Date(),
  };
}

/**
 * The job's work: check the address, then in one transaction store the result, refund a
 * `failed` check and record `email_single.verified`. `giveUp` (the last attempt after an
 * unexpected error) ends the check as failed rather than leaving it queued forever.
 */
export async function completeAsyncVerification(services: AppServices, id: string, giveUp?: string): Promise<void> {
  const em = services.orm.em.fork();
  const row = await em.findOne(EmailVerification, { id, kind: 'async' });
  if (!row || row.status !== QUEUED_CHECK) return;
  const outcome: CheckOutcome = giveUp ? { result: FAILED_RESULT, error: giveUp } : await verifyAddress(services, row.address);
  await em.transactional(async (tx) => {
    const columns = resultColumns(outcome);
    // Only the run that moves it out of `queued` records the result (a retried or twice-run job).
    const moved = await tx.nativeUpdate(EmailVerification, { id, status: QUEUED_CHECK }, columns);
    if (!moved) return;
    if (outcome.result === FAILED_RESULT) await refundCredits(tx, row.account.id, 1);
    const done = { id: row.id, address: row.address, status: columns.status, result: columns.result, error: columns.error };
    recordVerificationEvent(tx, row.account.id, 'email_single.verified', emailSingleVerifiedData(done));
  });
}

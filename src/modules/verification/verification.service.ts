import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { resultColumns, verifyAddress } from './verification.check.js';
import { assertCredits, takeCredits } from './credits.js';
import { FAILED_RESULT, type VerificationResult } from './verification.statuses.js';
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

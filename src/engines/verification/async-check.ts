import type { AppServices } from '../../core/services.js';
import { emailSingleVerifiedData, recordVerificationEvent } from '../../modules/events/verification-events.js';
import { resultColumns, verifyAddress, type CheckOutcome } from '../../modules/verification/verification.check.js';
import { refundCredits } from '../../modules/verification/credits.js';
import { FAILED_RESULT, QUEUED_CHECK } from '../../modules/verification/verification.statuses.js';
import { EmailVerification } from '../../modules/verification/verification.entity.js';

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

import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { emailListVerifiedData, recordVerificationEvent } from '../../modules/events/verification-events.js';
import { verifyAddress } from '../../modules/verification/verification.check.js';
import { settleCredits } from '../../modules/verification/credits.js';
import { EmailVerificationList } from '../../modules/verification/list.entity.js';
import { verificationListJob } from '../../modules/verification/list.job.js';
import { toVerificationList } from '../../modules/verification/list.view.js';
import { FAILED_LIST, LIST_ADDRESS, QUEUED_CHECK, statusOf, VERIFYING } from '../../modules/verification/verification.statuses.js';
import { EmailVerification } from '../../modules/verification/verification.entity.js';
import { VerificationRepository } from '../../modules/verification/verification.repository.js';

/** Runs `work` over `items` with at most `limit` in flight. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/**
 * One job run: verify up to VERIFY_LIST_CHUNK_SIZE queued addresses, VERIFY_LIST_CONCURRENCY at a
 * time, storing each result as it completes. Only the list's current chain works (`run_id`): a
 * pause and resume while a run is queued cannot leave two chains probing the same addresses.
 * (Jobs enqueued before run_id existed carry none and are taken as current.)
 */
export async function runListChunk(services: AppServices, listId: string, runId: string | null = null): Promise<void> {
  const em = services.orm.em.fork();
  const list = await em.findOne(EmailVerificationList, { id: listId });
  if (!list || list.status !== VERIFYING) return;
  if (runId && list.run_id && runId !== list.run_id) return;
  const { VERIFY_LIST_CHUNK_SIZE, VERIFY_LIST_CONCURRENCY } = services.config;
  const rows = await em.find(
    EmailVerification,
    { list_id: listId, kind: LIST_ADDRESS, status: QUEUED_CHECK },
    { orderBy: { created_at: 'asc', id: 'asc' }, limit: VERIFY_LIST_CHUNK_SIZE },
  );
  await eachLimited(rows, VERIFY_LIST_CONCURRENCY, async (row) => {
    const outcome = await verifyAddress(services, row.address);
    // Stored as each check ends, outside any transaction; a fork per lane, as the lanes run side by side.
    await new VerificationRepository(em.fork()).storeListResult(row.id, listId, {
      status: statusOf(outcome.result),
      result: outcome.result,
      error: outcome.error ?? null,
      suggestion: outcome.suggestion ?? null,
      mx: outcome.mx ?? null,
    });
  });
  const left = await em.count(EmailVerification, { list_id: listId, kind: LIST_ADDRESS, status: QUEUED_CHECK });
  await em.transactional(async (tx) => {
    if (left > 0) {
      await enqueue(tx, services.boss, verificationListJob, { list_id: listId, ...(runId ? { run_id: runId } : {}) });
      return;
    }
    await finishList(tx, listId);
  });
}

/**
 * Marks the list verified, or `failed` when no check of it could run (every result `failed`:
 * DNS or every MX unreachable), settles its credits and records `email_list.verified`, all at
 * once. A failed list completes too, so the event still tells the client; it costs no credit.
 */
async function finishList(tx: EntityManager, listId: string): Promise<void> {
  const ended = new Date();
  const status = (await new VerificationRepository(tx).allFailed(listId)) ? FAILED_LIST : 'verified';
  // Only the run that moves it out of `verifying` finishes it (a paused or canceled list stays so).
  const moved = await tx.nativeUpdate(EmailVerificationList, { id: listId, status: VERIFYING }, { status, verification_ended: ended, updated_at: ended });
  if (!moved) return;
  await settleCredits(tx, listId);
  const list = await tx.findOneOrFail(EmailVerificationList, { id: listId }, { refresh: true });
  const counts = (await new VerificationRepository(tx).resultCounts([listId])).get(listId)!;
  recordVerificationEvent(tx, list.account.id, 'email_list.verified', emailListVerifiedData(toVerificationList(list, counts)));
}

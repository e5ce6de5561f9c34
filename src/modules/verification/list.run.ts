import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../services.js';
import { emailListVerifiedData, recordVerificationEvent } from '../events/verification-events.js';
import { verifyAddress } from './check.js';
import { refundCredits } from './credits.js';
import { EmailVerificationList } from './list.entity.js';
import { verificationListJob } from './list.job.js';
import { toVerificationList, type ResultCounts } from './list.type.js';
import { EmailVerification } from './verification.entity.js';

/** Result counts per list, in one grouped query for a whole page of lists. */
export async function resultCounts(em: EntityManager, listIds: string[]): Promise<Map<string, ResultCounts>> {
  const out = new Map<string, ResultCounts>(listIds.map((id) => [id, {}]));
  if (!listIds.length) return out;
  const rows: { list_id: string; result: string; n: string }[] = await em.execute(
    `select list_id, result, count(*) as n from email_verifications
      where list_id in (${listIds.map(() => '?').join(',')}) and kind = 'list' and result is not null
      group by list_id, result`,
    listIds,
  );
  for (const r of rows) (out.get(r.list_id) as Record<string, number>)[r.result] = Number(r.n);
  return out;
}

/**
 * Brings the reserved credits down to what the list actually used (addresses with a result other
 * than `failed`) and refunds the rest. Idempotent: a second call finds nothing left to refund.
 */
export async function settleCredits(tx: EntityManager, listId: string): Promise<void> {
  const [row]: { account_id: string; reserved: number; used: string }[] = await tx.execute(
    `select l.account_id, l.credits_reserved as reserved,
       (select count(*) from email_verifications v where v.list_id = l.id and v.kind = 'list'
          and v.result is not null and v.result <> 'failed') as used
     from email_verification_lists l where l.id = ? for update`,
    [listId],
  );
  const refund = row.reserved - Number(row.used);
  if (refund <= 0) return;
  await tx.nativeUpdate(EmailVerificationList, { id: listId }, { credits_reserved: Number(row.used) });
  await refundCredits(tx, row.account_id, refund);
}

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
  const em = services.orm.em.fork() as EntityManager;
  const list = await em.findOne(EmailVerificationList, { id: listId });
  if (!list || list.status !== 'verifying') return;
  if (runId && list.run_id && runId !== list.run_id) return;
  const { VERIFY_LIST_CHUNK_SIZE, VERIFY_LIST_CONCURRENCY } = services.config;
  const rows = await em.find(
    EmailVerification,
    { list_id: listId, kind: 'list', status: 'queued' },
    { orderBy: { created_at: 'asc', id: 'asc' }, limit: VERIFY_LIST_CHUNK_SIZE },
  );
  await eachLimited(rows, VERIFY_LIST_CONCURRENCY, async (row) => {
    const outcome = await verifyAddress(services, row.address);
    // Stored only while the list is still verifying: a result that arrives after pause or cancel
    // stays queued (checked again on resume, never charged after cancel). FOR SHARE orders this
    // write against the status change, so cancel's credit settlement sees every stored result.
    await em.fork().execute(
      `update email_verifications set status = ?, result = ?, error = ?, suggestion = ?, mx = ?, verified_at = now(), updated_at = now()
        where id = ? and status = 'queued'
          and exists (select 1 from email_verification_lists l where l.id = ? and l.status = 'verifying' for share)`,
      [outcome.result === 'failed' ? 'failed' : 'completed', outcome.result, outcome.error ?? null, outcome.suggestion ?? null, outcome.mx ?? null, row.id, listId],
    );
  });
  const left = await em.count(EmailVerification, { list_id: listId, kind: 'list', status: 'queued' });
  await em.transactional(async (tx) => {
    if (left > 0) {
      await enqueue(tx, services.boss, verificationListJob, { list_id: listId, ...(runId ? { run_id: runId } : {}) });
      return;
    }
    await finishList(tx, listId);
  });
}

/** Marks the list verified, settles its credits and records `email_list.verified`, all at once. */
async function finishList(tx: EntityManager, listId: string): Promise<void> {
  const ended = new Date();
  // Only the run that moves it out of `verifying` finishes it (a paused or canceled list stays so).
  const moved = await tx.nativeUpdate(EmailVerificationList, { id: listId, status: 'verifying' }, { status: 'verified', verification_ended: ended, updated_at: ended });
  if (!moved) return;
  await settleCredits(tx, listId);
  const list = await tx.findOneOrFail(EmailVerificationList, { id: listId }, { refresh: true });
  const counts = (await resultCounts(tx, [listId])).get(listId)!;
  recordVerificationEvent(tx, list.account.id, 'email_list.verified', emailListVerifiedData(toVerificationList(list, counts)));
}

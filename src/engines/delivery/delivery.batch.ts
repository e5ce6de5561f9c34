import type { EntityManager } from '@mikro-orm/postgresql';
import { messageContentDropped } from '../../lib/metrics.js';
import type { AppServices } from '../../core/services.js';
import { reasonsFor, type SuppressionReason } from '../../modules/suppressions/suppression.matcher.js';
import type { Orm } from '../../db/orm.js';
import { dkimKey, type Prepared } from './delivery.compose.js';
import { deliverEmail } from './delivery.email.js';
import { DeliveryEngine, leaseSeconds, type BatchClaim } from './delivery.engine.js';
import { DeliveryRepository, type BatchLease, type TakenMessage } from './delivery.repository.js';
import type { LapsedBatch } from './lease.repository.js';
import type { LeasedJob } from './delivery-lease.entity.js';
import { enqueueAll, transactionDb } from '../../jobs/boss.js';
import { MalformedJobData } from '../../jobs/job.js';
import { settleJobs } from '../../jobs/loop.js';
import { deliverJob } from '../../modules/sending/deliver.job.js';
import { MessageRepository } from '../../modules/sending/message.repository.js';

export class DeferredDelivery extends Error {}

/**
 * A message whose emails only waited for their destination's pace (site-shaper.ts): its job
 * completes and a new one is queued for `until`, in the transaction that settles the batch, so
 * the wait is neither a delivery attempt nor a retry.
 */
export class HeldDelivery extends Error {
  constructor(readonly until: Date) {
    super('paced by the destination');
  }
}

/** What a batch's messages came to: those with every email settled, and the emails put off by their destination's pace. */
interface BatchEnd {
  finished: string[];
  held: string[];
}

const engines = new WeakMap<Orm, DeliveryEngine>();

/** The engine of the pool the worker runs on (one per process in practice); it takes lapsed batches over with deliverLapsed. */
export function engineOf(services: AppServices): DeliveryEngine {
  let engine = engines.get(services.orm);
  if (!engine) {
    engine = new DeliveryEngine(services.orm, services, (lapsed) => deliverLapsed(services, lapsed));
    engines.set(services.orm, engine);
  }
  return engine;
}

/** A batch whose claim committed: its lease row, the messages its jobs name, and those its claim took. */
export interface ClaimedBatch {
  lease: BatchLease;
  messageIds: string[];
  taken: TakenMessage[];
}

/**
 * Claims a batch's messages in `em`'s transaction (the one that fetched its jobs, delivery.loop.ts)
 * or alone (a batch taken over, whose row `leaseId` is already the caller's): one statement takes
 * the messages and claims their emails with a lease, and writes the batch's lease row with its
 * jobs, so no job is ever active without a row another worker can take over.
 */
export async function claimBatch(
  services: AppServices,
  em: EntityManager,
  batch: { leaseId: string; messageIds: string[]; finalIds: string[]; jobs: LeasedJob[] },
): Promise<ClaimedBatch> {
  const messageIds = [...new Set(batch.messageIds)];
  const lease: BatchLease = { id: batch.leaseId, owner: engineOf(services).owner, seconds: leaseSeconds(services.config), finalIds: batch.finalIds, jobs: batch.jobs };
  const taken = await new DeliveryRepository(em).take(messageIds, lease, services.config.MAIL_TRANSPORT === 'capture');
  return { lease, messageIds, taken };
}

/**
 * The messages of a batch whose worker stopped renewing its lease (it died or froze), now this
 * process's row: delivered at once and its jobs settled, as their own worker would have. Not a
 * delivery attempt of theirs: the killed attempt left no outcome, so what was pending is tried
 * now, and only what this try defers retries its job.
 */
async function deliverLapsed(services: AppServices, lapsed: LapsedBatch): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const claimed = await claimBatch(services, em, { leaseId: lapsed.id, messageIds: lapsed.message_ids, finalIds: lapsed.final_ids, jobs: lapsed.jobs });
  await deliverClaimed(services, claimed);
}

/**
 * Delivers a claimed batch and settles its jobs (null: done; an error: retried). The round trips
 * are per batch, not per message: the claim took the messages, one statement per account and
 * domain reads the suppressions; the emails then go out side by side (DELIVERY_CONCURRENCY per
 * process, over the transport's pooled connections), their outcomes are committed by group
 * commit, and one transaction ends the lease row and settles the jobs.
 */
export async function deliverClaimed(services: AppServices, claimed: ClaimedBatch): Promise<void> {
  const engine = engineOf(services);
  const em = services.orm.em.fork() as EntityManager;
  const { lease, taken } = claimed;
  const final = new Set(lease.finalIds);
  const batch = engine.begin(lease.id);
  const held: string[] = [];
  for (const m of taken) {
    // An email another batch of this process is already sending stays with that batch.
    m.emails = m.emails.filter((e) => !engine.held.has(e.id));
    for (const e of m.emails) {
      engine.held.set(e.id, batch);
      held.push(e.id);
    }
  }
  const result = new Map<string, Error | null>();
  let prepared: Prepared[];
  let reasons: Map<string, Map<string, SuppressionReason>>;
  try {
    const takenIds = new Set(taken.map((m) => m.id));
    await settleBlocked(services, em, claimed.messageIds.filter((id) => !takenIds.has(id)), result);
    prepared = await prepare(services, new DeliveryRepository(em), taken);
    reasons = await suppressionsOf(em, taken);
  } catch (err) {
    // Nothing was sent: the claims go back at once rather than when their lease runs out.
    for (const id of held) engine.held.delete(id);
    for (const id of claimed.messageIds) result.set(id, err as Error);
    await settle(services, engine, batch, claimed, result, { release: held });
    return;
  }
  const end: BatchEnd = { finished: [], held: [] };
  await Promise.all(prepared.map((p) => deliverMessage(services, engine, batch, p, final.has(p.message.id), reasons, result, end)));
  await settle(services, engine, batch, claimed, result, end);
}

/** The emails of one message, each in a slot; sets its job's result, or adds it to `finished`, and its emails put off to `held`. */
async function deliverMessage(
  services: AppServices,
  engine: DeliveryEngine,
  batch: BatchClaim,
  p: Prepared,
  lastAttempt: boolean,
  reasons: Map<string, Map<string, SuppressionReason>>,
  result: Map<string, Error | null>,
  end: BatchEnd,
): Promise<void> {
  const m = p.message;
  const suppressed = reasons.get(`${m.account_id}:${m.domain_id}`)!;
  const outcomes = await Promise.allSettled(
    m.emails.map((e) => engine.slots.run(() => deliverEmail(services, engine, p, e, batch, lastAttempt, suppressed.get(e.to_email.toLowerCase()) ?? null))),
  );
  const failed = outcomes.find((o) => o.status === 'rejected');
  const count = (status: string) => outcomes.filter((o) => o.status === 'fulfilled' && o.value === status).length;
  const [deferred, lost] = [count('deferred'), count('lost')];
  const held = outcomes.flatMap((o, i) => (o.status === 'fulfilled' && typeof o.value === 'object' ? [{ id: m.emails[i].id, until: o.value.held }] : []));
  end.held.push(...held.map((h) => h.id));
  // The messages say how many, not which message: the job's data names it, and equal errors settle in one call.
  if (failed) result.set(m.id, failed.reason as Error);
  else if (lost) result.set(m.id, new DeferredDelivery(`${lost} email(s) taken over by another worker; retrying later`));
  else if (deferred) result.set(m.id, new DeferredDelivery(`${deferred} email(s) deferred; retrying later`));
  else if (held.length) result.set(m.id, new HeldDelivery(new Date(Math.min(...held.map((h) => h.until.getTime())))));
  else if (m.pending > m.emails.length) result.set(m.id, new DeferredDelivery(`${m.pending - m.emails.length} email(s) held by another worker; retrying later`));
  else end.finished.push(m.id);
}

/**
 * Ends the batch in one transaction: its finished messages marked sent (or, for a batch that
 * failed before sending, its emails' leases freed), the leases of its emails put off by their
 * destination's pace freed, its lease row deleted, and its jobs settled (a put-off message's
 * job completed and a new one queued for its time).
 * A row another worker took over meanwhile stays: that worker settles the jobs. Should the
 * transaction fail, the row lapses and is taken over, by this process or another.
 */
async function settle(
  services: AppServices,
  engine: DeliveryEngine,
  batch: BatchClaim,
  claimed: ClaimedBatch,
  result: Map<string, Error | null>,
  end: BatchEnd | { release: string[] },
): Promise<void> {
  const { lease } = claimed;
  const { owner } = engine;
  try {
    const dropped = await (services.orm.em.fork() as EntityManager).transactional(async (tx) => {
      const repo = new DeliveryRepository(tx);
      const ended = 'finished' in end ? await repo.finishDone(end.finished, lease.id, owner) : { dropped: 0, owned: await repo.release(lease.id, owner, end.release) };
      if (!ended.owned) return 0;
      if ('held' in end && end.held.length) await repo.free(end.held);
      const outcomes = lease.jobs.map((j) => ({
        id: j.id,
        retryCount: j.retryCount,
        error: j.messageId === null ? new MalformedJobData(deliverJob.name, j.refused ?? '') : (result.get(j.messageId) ?? null),
      }));
      // A message its destination's pace put off is done with this job, and goes in a new one at its time.
      const later = outcomes.flatMap((o, i) => (o.error instanceof HeldDelivery ? [{ data: { message_id: lease.jobs[i].messageId! }, startAfter: o.error.until }] : []));
      await settleJobs(services.boss, deliverJob.name, transactionDb(tx)!, outcomes.map((o) => (o.error instanceof HeldDelivery ? { ...o, error: null } : o)), services.log);
      await enqueueAll(tx, services.boss, deliverJob, later);
      return ended.dropped;
    });
    if (dropped) messageContentDropped.inc(dropped);
  } catch (err) {
    services.log.warn({ err: (err as Error).message, lease: lease.id }, 'delivery batch not settled; its lease row will be taken over');
  } finally {
    engine.end(batch);
  }
}

/**
 * Messages `take` left: a paused domain's wait (switching send_paused off queues them again); a
 * sandbox-trusted domain's, or one whose template is gone, end in `error`. One that is simply no
 * longer deliverable (cancelled, sent) is done; one that fits none of these changed under the
 * statement and is retried.
 */
async function settleBlocked(services: AppServices, em: EntityManager, ids: string[], result: Map<string, Error | null>) {
  for (const b of await new DeliveryRepository(em).blocked(ids)) {
    if (b.paused) await new MessageRepository(em).pause(b.id);
    // A domain the sandbox trusted without DNS sends into the capture transport only: mail leaves
    // the machine from DNS-verified domains alone, whatever this process's settings say.
    else if (b.trusted && services.config.MAIL_TRANSPORT !== 'capture') {
      await giveUp(em, b.id, 'The domain was trusted by the sandbox (DOMAIN_VERIFICATION=trust) and has not passed DNS verification.');
    }
    // SPEC.md: a scheduled send whose template was deleted before the send time is not sent.
    else if (b.template_missing) await giveUp(em, b.id, 'The template was deleted before the send time.');
    else result.set(b.id, new Error(`message ${b.id} changed while being taken; retrying`));
  }
}

/** A message that cannot be sent at all: it ends in `error` with the reason, its pending emails cancelled. */
async function giveUp(em: EntityManager, messageId: string, reason: string): Promise<void> {
  await em.transactional((tx) => new MessageRepository(tx).fail(messageId, reason));
}

async function prepare(services: AppServices, repo: DeliveryRepository, taken: TakenMessage[]): Promise<Prepared[]> {
  const files = new Map<string, Prepared['attachments']>();
  for (const a of await repo.attachments(taken.filter((m) => m.has_attachments).map((m) => m.id))) {
    (files.get(a.message_id) ?? files.set(a.message_id, []).get(a.message_id)!).push(a);
  }
  return taken.map((message) => ({
    message,
    attachments: files.get(message.id) ?? [],
    privateKey: dkimKey(services.config.APP_SECRET, message.dkim_private_key_enc),
  }));
}

/**
 * Checked again at send time, one statement per account and domain of the batch: an address may
 * have been suppressed since the message was accepted (a scheduled send, an unsubscribe, a bounce
 * of an earlier message). Suppressed cc and bcc addresses are left out of the first email.
 */
async function suppressionsOf(em: EntityManager, taken: TakenMessage[]) {
  const groups = new Map<string, TakenMessage[]>();
  for (const m of taken) {
    const key = `${m.account_id}:${m.domain_id}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(m);
  }
  const reasons = new Map<string, Map<string, SuppressionReason>>();
  for (const [key, messages] of groups) {
    const addresses = messages.flatMap((m) => [...m.emails.map((e) => e.to_email), ...m.cc.map((a) => a.email), ...m.bcc.map((a) => a.email)]);
    const found = await reasonsFor(em, messages[0].account_id, messages[0].domain_id, addresses);
    for (const m of messages) {
      m.cc = m.cc.filter((a) => !found.has(a.email.toLowerCase()));
      m.bcc = m.bcc.filter((a) => !found.has(a.email.toLowerCase()));
    }
    reasons.set(key, found);
  }
  return reasons;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { deliverySeconds, messageContentDropped } from '../../lib/metrics.js';
import type { AppServices } from '../../core/services.js';
import type { ActivityEmail } from '../../modules/activity/activity.record.js';
import { PermanentMailError } from '../../modules/mail/smtp-transport.js';
import { reasonsFor, type SuppressionReason } from '../../modules/suppressions/suppression.matcher.js';
import type { Orm } from '../../db/orm.js';
import { newId } from '../../lib/ids.js';
import { compose, dkimKey, type Prepared } from './delivery.compose.js';
import { DeliveryEngine, leaseSeconds, type BatchClaim } from './delivery.engine.js';
import { DeliveryRepository, type ClaimedEmail, type TakenMessage } from './delivery.repository.js';
import type { LapsedBatch } from './lease.repository.js';
import { MessageRepository } from '../../modules/sending/message.repository.js';
import type { Outcome } from './outcome.recorder.js';

export class DeferredDelivery extends Error {}

/** One message to deliver: an `email.deliver` job of a fetched batch, or of a batch taken over. */
export interface DeliveryJob {
  messageId: string;
  /** Its job's last attempt: what is deferred now soft-bounces instead. */
  lastAttempt: boolean;
}

const engines = new WeakMap<Orm, DeliveryEngine>();

/** The engine of the pool the worker runs on (one per process in practice); it takes lapsed batches over with deliverBatch. */
export function engineOf(services: AppServices): DeliveryEngine {
  let engine = engines.get(services.orm);
  if (!engine) {
    engine = new DeliveryEngine(services.orm, services, (lapsed) => deliverLapsed(services, lapsed));
    engines.set(services.orm, engine);
  }
  return engine;
}

/**
 * The messages of a batch whose worker stopped renewing its lease (it died or froze), delivered
 * now by this process. Not a delivery attempt of their jobs: what is deferred here waits for the
 * dead worker's job, which pg-boss retries once its heartbeat is stale.
 */
async function deliverLapsed(services: AppServices, lapsed: LapsedBatch): Promise<void> {
  const final = new Set(lapsed.final_ids);
  const results = await deliverBatch(
    services,
    lapsed.message_ids.map((id) => ({ messageId: id, lastAttempt: final.has(id) })),
  );
  // What is left waits for the dead worker's jobs, which pg-boss retries much later: said, so a
  // slow takeover can be told from a slow receiver.
  const failed = results.filter((r) => r !== null && !(r instanceof DeferredDelivery));
  if (failed.length) services.log.warn({ messages: results.length, failed: failed.length, err: failed[0]!.message }, 'taken-over delivery batch left messages unsettled');
}

/**
 * Emails the receiving server accepted (250) whose outcome could not be committed: the database
 * went away between the 250 and the commit (a restart, a dropped connection). The job's retry in
 * this process records them without sending again, so a database outage sends nothing twice; only
 * a process that dies in that window does (docs/api-behaviour.md, "Exactly once"). Bounded: the oldest go first.
 * Email id → the server's response to its 250.
 */
const acceptedUnrecorded = new Map<string, string>();
const UNRECORDED_MAX = 10_000;

/**
 * Delivers the messages of a batch of jobs, and says for each job whether it is done (null) or
 * must be retried (the error). The round trips are per batch, not per message: one statement
 * takes the messages and claims their emails with a lease, one reads the suppressions of each
 * account and domain; the emails then go out side by side (DELIVERY_CONCURRENCY per process, over
 * the transport's pooled connections) and their outcomes are committed by group commit.
 */
export async function deliverBatch(services: AppServices, jobs: DeliveryJob[]): Promise<(Error | null)[]> {
  const { config } = services;
  const engine = engineOf(services);
  const em = services.orm.em.fork() as EntityManager;
  const repo = new DeliveryRepository(em);
  const ids = [...new Set(jobs.map((j) => j.messageId))];
  const result = new Map<string, Error | null>();

  const lastAttempt = new Map<string, boolean>();
  for (const j of jobs) lastAttempt.set(j.messageId, (lastAttempt.get(j.messageId) ?? false) || j.lastAttempt);
  const lease = { id: newId(), seconds: leaseSeconds(config), finalIds: ids.filter((id) => lastAttempt.get(id)) };
  const taken = await repo.take(ids, lease, config.MAIL_TRANSPORT === 'capture');
  const batch = engine.begin(lease.id);
  const claimed: string[] = [];
  for (const m of taken) {
    // An email another job of this process is already sending stays with that job.
    m.emails = m.emails.filter((e) => !engine.held.has(e.id));
    for (const e of m.emails) {
      engine.held.set(e.id, batch);
      claimed.push(e.id);
    }
  }

  let prepared: Prepared[];
  let reasons: Map<string, Map<string, SuppressionReason>>;
  try {
    const takenIds = new Set(taken.map((m) => m.id));
    await settleBlocked(services, em, ids.filter((id) => !takenIds.has(id)), result);
    prepared = await prepare(services, repo, taken);
    reasons = await suppressionsOf(em, taken);
  } catch (err) {
    // Nothing was sent: the claims go back at once rather than when their lease runs out.
    for (const id of claimed) engine.held.delete(id);
    engine.end(batch);
    await repo.release(lease.id, claimed).catch(() => undefined);
    throw err;
  }

  const finished: string[] = [];
  await Promise.all(
    prepared.map(async (p) => {
      const m = p.message;
      const suppressed = reasons.get(`${m.account_id}:${m.domain_id}`)!;
      const outcomes = await Promise.allSettled(
        m.emails.map((e) =>
          engine.slots.run(() => deliverEmail(services, engine, p, e, batch, lastAttempt.get(m.id)!, suppressed.get(e.to_email.toLowerCase()) ?? null)),
        ),
      );
      const failed = outcomes.find((o) => o.status === 'rejected');
      const deferred = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'deferred').length;
      const lost = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'lost').length;
      if (failed) result.set(m.id, failed.reason as Error);
      else if (lost) result.set(m.id, new DeferredDelivery(`${lost} email(s) of message ${m.id} taken over by another worker; retrying later`));
      else if (deferred) result.set(m.id, new DeferredDelivery(`${deferred} email(s) of message ${m.id} deferred; retrying later`));
      else if (m.pending > m.emails.length) result.set(m.id, new DeferredDelivery(`${m.pending - m.emails.length} email(s) of message ${m.id} held by another worker; retrying later`));
      else finished.push(m.id);
    }),
  );
  try {
    const { dropped } = await repo.finishDone(finished, lease.id);
    if (dropped) messageContentDropped.inc(dropped);
    for (const id of finished) result.set(id, null);
  } catch (err) {
    for (const id of finished) result.set(id, err as Error);
  } finally {
    engine.end(batch);
  }
  return jobs.map((j) => result.get(j.messageId) ?? null);
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

/**
 * One email: suppressed, or built, signed and handed to the transport, then its outcome recorded
 * (the slot is held until the commit, so DELIVERY_CONCURRENCY bounds what a killed worker can
 * leave between a 250 and its record). `lost` when its batch was taken over by another worker
 * before its turn came (this process froze past its lease): then it is not sent from here.
 */
async function deliverEmail(
  services: AppServices,
  engine: DeliveryEngine,
  p: Prepared,
  email: ClaimedEmail,
  batch: BatchClaim,
  lastAttempt: boolean,
  suppressed: SuppressionReason | null,
): Promise<Outcome['row']['status'] | 'lost'> {
  const m = p.message;
  const ref: ActivityEmail = {
    id: email.id,
    account_id: m.account_id,
    domain_id: m.domain_id,
    message_id: m.id,
    subject: email.subject,
    to_email: email.to_email,
    tags: email.tags,
    purge_after: m.purge_after,
  };
  try {
    if (!(await engine.holds(batch))) return 'lost';
    const outcome = suppressed
      ? suppressedOutcome(ref, suppressed)
      : await send(services, p, email, ref, lastAttempt);
    await engine.recorder.record(outcome);
    acceptedUnrecorded.delete(email.id);
    return outcome.row.status;
  } finally {
    engine.held.delete(email.id);
  }
}

function suppressedOutcome(ref: ActivityEmail, reason: SuppressionReason): Outcome {
  return {
    row: { id: ref.id, status: 'suppressed', suppression_reason: reason, tried: 0, response: null },
    email: ref,
    activities: [{ type: 'suppressed', suppression_reason: reason }],
  };
}

async function send(services: AppServices, p: Prepared, email: ClaimedEmail, ref: ActivityEmail, lastAttempt: boolean): Promise<Outcome> {
  const accepted = acceptedUnrecorded.get(email.id);
  if (accepted !== undefined) return delivered(ref, accepted, 0);
  let tried = 0;
  try {
    const mime = await compose(services.config, p, email);
    tried = 1;
    const t0 = performance.now();
    const info = await services.mail
      .sendRaw({
        envelope: mime.envelope,
        raw: mime.raw,
        meta: { email_id: email.id, to: email.to_email, from: p.message.from_email, subject: email.subject, text: mime.text ?? '', html: mime.html },
      })
      .finally(() => deliverySeconds.observe((performance.now() - t0) / 1000));
    const response = info.response.slice(0, 2000);
    if (acceptedUnrecorded.size >= UNRECORDED_MAX) acceptedUnrecorded.delete(acceptedUnrecorded.keys().next().value!);
    acceptedUnrecorded.set(email.id, response);
    return delivered(ref, response, 1);
  } catch (err) {
    const response = ((err as { response?: string }).response ?? String((err as Error).message ?? err)).slice(0, 2000);
    const permanent = err instanceof PermanentMailError;
    const status = permanent ? 'hard_bounced' : lastAttempt ? 'soft_bounced' : 'deferred';
    services.log.info({ email: email.id, outcome: status, response }, 'delivery refused');
    return {
      row: { id: email.id, status, suppression_reason: null, tried, response },
      email: ref,
      activities: [{ type: status, data: { smtp_response: response } }],
      ...(permanent ? { hardBounce: { recipientId: email.recipient_id, reason: response } } : {}),
    };
  }
}

function delivered(ref: ActivityEmail, response: string, tried: number): Outcome {
  return {
    row: { id: ref.id, status: 'delivered', suppression_reason: null, tried, response },
    email: ref,
    activities: [
      { type: 'sent', data: { smtp_response: response } },
      { type: 'delivered', data: { smtp_response: response } },
    ],
  };
}

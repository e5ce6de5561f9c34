import { LockMode } from '@mikro-orm/core';
import { sortableId } from '../../lib/ids.js';
import { webhooksPaused } from '../../lib/metrics.js';
import { isoOfDate } from '../../lib/timestamps.js';
import type { AppServices } from '../../core/services.js';
import { accountFailure, failureWindow, pauseWebhook } from './failure.accounting.js';
import type { WebhookCallResult } from '../../lib/webhook-http.js';
import { attemptNotice, attemptTopic } from '../../modules/webhooks/log.notice.js';
import { nextAttemptAt } from './retry.schedule.js';
import { DELIVERY, Webhook, type WebhookPause } from '../../modules/webhooks/webhook.entity.js';
import { EngineRepository } from './dispatch.repository.js';
import { isFresh, type BatchLease, type FreshDelivery } from './lease.repository.js';
import { SuccessColumns } from './success.repository.js';
import { WebhookRepository, type Claimed, type FailedRow } from '../../modules/webhooks/webhook.repository.js';

/** One attempt of a round: the claimed delivery, when its request started, and what came of it. */
export interface Outcome {
  claimed: Claimed;
  at: Date;
  result: WebhookCallResult;
}

const LOG_CHARS = 1000;

/** The receiver's answer as the log keeps it. */
const excerptOf = (r: WebhookCallResult): string | null => r.excerpt?.slice(0, LOG_CHARS) ?? null;

/** An attempt as logged: its row, its error (a failure's), and the outcome it came from. */
function logged(o: Outcome, id = sortableId()) {
  const { claimed: d, at, result: r } = o;
  const row = {
    id,
    delivery_id: d.id,
    attempted_at: isoOfDate(at),
    status: r.status,
    duration_ms: r.durationMs,
    response_excerpt: excerptOf(r),
  };
  return { row, error: r.ok ? null : (r.error?.slice(0, LOG_CHARS) ?? null), o };
}

type Logged = ReturnType<typeof logged>;

/**
 * Tells live subscribers of a committed attempt, logged with id `id` (pubsub `live`: batched,
 * and only if some process listens to the account's topic). The notice is built only then:
 * almost always nobody listens, and a round records hundreds of attempts.
 */
function tell(services: AppServices, o: Outcome, id: string): void {
  if (services.pubsub.hears(attemptTopic(o.claimed.account_id))) notify(services, o, id);
}

/** The live notice of a committed attempt logged with id `id`, to its account's topic. */
function notify(services: AppServices, o: Outcome, id: string): void {
  const d = o.claimed;
  const { row, error } = logged(o, id);
  const attempt = { ...row, type: d.type, attempted_at: o.at, success: o.result.ok, error };
  services.pubsub.live(attemptTopic(d.account_id), attemptNotice({ id: d.webhook_id, account_id: d.account_id, domain_id: d.domain_id }, attempt).detail);
}

/** Successful attempts of a round as logged (columns), with their outcomes in the same order. */
class Successes {
  readonly columns = new SuccessColumns();
  readonly outcomes: Outcome[] = [];

  add(o: Outcome): void {
    const r = o.result;
    this.columns.add(o.claimed.id, isoOfDate(o.at), r.status, r.durationMs, excerptOf(r));
    this.outcomes.push(o);
  }

  /** Tells of those written (all but `unwritten`), asking once per account whether anyone listens. */
  tell(services: AppServices, unwritten: Set<string>, columns = this.columns): void {
    if (!this.outcomes.length) return;
    const byDelivery = columns === this.columns ? null : new Map(this.outcomes.map((o) => [o.claimed.id, o]));
    const heard = new Map<string, boolean>();
    columns.deliveryIds.forEach((deliveryId, i) => {
      if (unwritten.has(deliveryId)) return;
      const o = byDelivery ? byDelivery.get(deliveryId)! : this.outcomes[i];
      const account = o.claimed.account_id;
      let hears = heard.get(account);
      if (hears === undefined) heard.set(account, (hears = services.pubsub.hears(attemptTopic(account))));
      if (hears) notify(services, o, columns.ids[i]);
    });
  }
}

/**
 * Writes a round's attempts and moves their deliveries on. Fresh deliveries (dispatched to this
 * worker, not written yet: lease.repository.ts) that were not delivered are written pending
 * first, `unstarted` ones (their attempt could not start) due when their batch's lease ends.
 * Then every success in one statement per kind (no webhook lock, nothing to count): claimed
 * ones updated, fresh ones written delivered, with the lease rows of batches now fully written;
 * then the failures of each webhook in one transaction that locks that webhook once. Live
 * subscribers hear of each attempt once its statement or transaction has committed (pubsub
 * `live`: batched, and only if some process listens to the account's topic).
 * Never throws: what could not be recorded stays leased (a claimed delivery) or in its batch's
 * lease row (a fresh one), and is attempted again once the lease runs out (receivers
 * de-duplicate on webhook-id).
 */
export async function recordRound(services: AppServices, outcomes: Outcome[], unstarted: FreshDelivery[] = []): Promise<void> {
  const repo = await EngineRepository.of(services.orm.em);
  // Batches whose every delivery is now written (or failed to be): their lease rows go.
  const complete = new Set<BatchLease>();
  const delivered = new Successes();
  // Fresh deliveries delivered, and the lease rows (batches) they come from.
  const deliveredFresh = new Successes();
  const freshLeases = new Set<BatchLease>();
  const pendingFresh: FreshDelivery[] = [...unstarted];
  const failedByWebhook = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const d = o.claimed;
    if (o.result.ok) {
      if (isFresh(d)) {
        deliveredFresh.add(o);
        freshLeases.add(d.lease);
        if (--d.lease.left === 0) complete.add(d.lease);
      } else delivered.add(o);
      continue;
    }
    if (isFresh(d)) pendingFresh.push(d);
    const group = failedByWebhook.get(d.webhook_id);
    if (group) group.push(o);
    else failedByWebhook.set(d.webhook_id, [o]);
  }
  try {
    await repo.leases.writeFreshPending(pendingFresh);
  } catch (err) {
    // Their batches' lease rows stay, so the deliveries are written when the leases run out.
    for (const d of pendingFresh) d.lease.broken = true;
    services.log.error({ err, deliveries: pendingFresh.length }, 'webhook deliveries could not be written');
  }
  for (const d of pendingFresh) if (--d.lease.left === 0) complete.add(d.lease);
  try {
    delivered.tell(services, await repo.recordDelivered(delivered.columns));
  } catch (err) {
    services.log.error({ err, deliveries: delivered.outcomes.length }, 'webhook deliveries could not be recorded');
  }
  try {
    const done = [...complete].filter((l) => !l.broken).map((l) => l.id);
    const leases = [...freshLeases].map((l) => l.id);
    const unwritten = await repo.leases.recordFreshDelivered(deliveredFresh.columns, leases, done);
    deliveredFresh.tell(services, unwritten);
    // Their lease ran out before this record (a slow round): a tick wrote them pending, so they
    // are recorded as claimed ones; a webhook deleted meanwhile leaves nothing to record.
    if (unwritten.size) {
      const late = deliveredFresh.columns.pick((id) => unwritten.has(id));
      deliveredFresh.tell(services, await repo.recordDelivered(late), late);
    }
  } catch (err) {
    for (const lease of freshLeases) lease.broken = true;
    services.log.error({ err, deliveries: deliveredFresh.outcomes.length }, 'webhook deliveries could not be recorded');
  }
  for (const [webhookId, group] of failedByWebhook) {
    try {
      await recordFailures(services, webhookId, group);
    } catch (err) {
      // One webhook's broken record must not stop the others'.
      services.log.error({ err, webhook: webhookId, deliveries: group.length }, 'webhook failures could not be recorded');
    }
  }
}

/**
 * One webhook's failed attempts of a round, in the order they started, with the webhook row
 * locked: each delivery is retried, failed or given up as its schedule says, then each failure
 * is accounted in turn against the window's count (failure.accounting.ts), so the thresholds behave as
 * if the attempts were recorded one by one, and concurrent workers count each exactly once.
 */
async function recordFailures(services: AppServices, webhookId: string, group: Outcome[]): Promise<void> {
  const hours = services.config.WEBHOOK_RETRY_WINDOW_HOURS;
  const told: Logged[] = [];
  // Set inside the transaction, read once it committed.
  let paused = null as WebhookPause | null;
  await services.orm.em.fork().transactional(async (tx) => {
    paused = null;
    const webhook = await tx.findOne(Webhook, { id: webhookId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // Deleted meanwhile: its deliveries went with it.
    if (!webhook) return;
    const wasPaused = webhook.paused_reason !== null;
    const repo = new WebhookRepository(tx);
    const progress = new Map((await repo.lockDeliveries(group.map((o) => o.claimed.id))).map((d) => [d.id, d]));
    const now = new Date();
    const rows: FailedRow[] = [];
    const notices: Logged[] = [];
    const pauses: Array<WebhookPause | null> = [];
    for (const o of [...group].sort((a, b) => a.at.getTime() - b.at.getTime())) {
      const d = progress.get(o.claimed.id);
      if (!d) continue;
      const r = o.result;
      const attempts = d.attempts + 1;
      let next: Date | null = null;
      let state: FailedRow['state'] = DELIVERY.failed;
      let pause: WebhookPause | null = null;
      if (r.gone) pause = 'gone';
      else if (!r.permanent) {
        next = nextAttemptAt(attempts, now, Math.random, r.retryAfterSeconds, { createdAt: new Date(d.created_at), hours });
        state = next ? DELIVERY.pending : DELIVERY.gaveUp;
        // Down for the whole window: stop sending until someone looks. A replayed old delivery
        // that fails its single attempt gives up again without pausing the webhook.
        if (!next && attempts > 1) pause = 'retry_window';
      }
      const l = logged(o);
      rows.push({ ...l.row, error: l.error, state, next_attempt_at: next?.toISOString() ?? null });
      notices.push(l);
      pauses.push(pause);
    }
    if (!rows.length) return;
    const written = await repo.recordFailed(rows);
    rows.forEach((row, i) => {
      if (written.has(row.delivery_id)) told.push(notices[i]);
    });
    const window = await failureWindow(tx, webhook.id, now);
    let failures = window.failures - rows.length;
    for (const pause of pauses) {
      if (pause) pauseWebhook(webhook, pause, now);
      failures++;
      await accountFailure(tx, services, webhook, now, { since: window.since, failures });
    }
    if (!wasPaused) paused = webhook.paused_reason;
  });
  // Committed (transactional threw otherwise): now the attempts may be told.
  if (paused) webhooksPaused.inc({ reason: paused });
  for (const l of told) tell(services, l.o, l.row.id);
}

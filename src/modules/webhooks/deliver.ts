import { LockMode } from '@mikro-orm/core';
import { decrypt } from '../../lib/secrets.js';
import { newId } from '../../lib/ids.js';
import type { AppServices } from '../../services.js';
import { accountFailure, pauseWebhook } from './accounting.js';
import { postWebhook, type WebhookCallResult } from './http.js';
import { attemptNotice } from './log.notice.js';
import type { LoggedAttempt } from './log.mapper.js';
import { nextAttemptAt } from './schedule.js';
import { signatureHeaders } from './sign.js';
import { DELIVERY, Webhook, WebhookAttempt, WebhookDelivery } from './webhook.entity.js';
import { WebhookRepository, type Claimed } from './webhook.repository.js';

/** Deliveries claimed per round, and how many requests of a round are in flight at once. */
export const CLAIM_BATCH = 50;
const IN_FLIGHT = 10;
/**
 * A claimed delivery's next_attempt_at is pushed this far ahead while its round runs, so another
 * worker skips it; if this worker dies, the delivery becomes due again afterwards. Twice the
 * longest a round can take (its requests, IN_FLIGHT at a time, each up to the timeout plus a
 * second to record), so a live worker's lease never runs out while a killed one's deliveries
 * wait well under a minute with the defaults (40 s), not minutes.
 */
export function leaseMs(timeoutMs: number): number {
  return 2 * Math.ceil(CLAIM_BATCH / IN_FLIGHT) * (timeoutMs + 1000);
}

/** One signed POST of a claimed delivery, then its outcome recorded. */
async function attempt(services: AppServices, d: Claimed): Promise<void> {
  const { config } = services;
  const at = new Date();
  const secret = decrypt(config.APP_SECRET, d.secret_enc);
  const result = await postWebhook({
    url: d.url,
    body: d.body,
    // The same id on every retry (receivers de-duplicate on it); a fresh timestamp and signatures.
    headers: signatureHeaders(secret, d.body, d.id, at),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    dns: services.dns,
  });
  await recordOutcome(services, d, at, result);
}

/**
 * Writes the attempt to the log and moves the delivery on. A failure takes a transaction with the
 * webhook row locked, so the failure accounting of concurrent attempts counts each exactly once;
 * a success needs neither (successes of one webhook must not queue behind each other on it).
 */
export async function recordOutcome(services: AppServices, claimed: Claimed, at: Date, r: WebhookCallResult): Promise<void> {
  if (r.ok) return recordSuccess(services, claimed, at, r);
  const { config } = services;
  await services.orm.em.fork().transactional(async (tx) => {
    const delivery = await tx.findOneOrFail(WebhookDelivery, { id: claimed.id });
    const webhook = await tx.findOneOrFail(Webhook, { id: delivery.webhook.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const logged = tx.create(WebhookAttempt, {
      webhook_id: webhook.id,
      delivery_id: delivery.id,
      type: delivery.type,
      attempted_at: at,
      success: r.ok,
      status: r.status,
      duration_ms: r.durationMs,
      response_excerpt: r.excerpt?.slice(0, 1000) ?? null,
      error: r.error?.slice(0, 1000) ?? null,
    });
    await tx.flush();
    await new WebhookRepository(tx).notifyOnCommit(attemptNotice({ id: webhook.id, account_id: webhook.account.id, domain_id: webhook.domain?.id ?? null }, logged));
    delivery.attempts += 1;
    delivery.last_status = r.status;
    const now = new Date();
    if (r.ok) {
      delivery.state = DELIVERY.delivered;
      delivery.next_attempt_at = null;
      return;
    }
    if (r.gone) {
      delivery.state = DELIVERY.failed;
      delivery.next_attempt_at = null;
      pauseWebhook(webhook, 'gone', now);
    } else if (r.permanent) {
      delivery.state = DELIVERY.failed;
      delivery.next_attempt_at = null;
    } else {
      const next = nextAttemptAt(delivery.attempts, now, Math.random, r.retryAfterSeconds, {
        createdAt: delivery.created_at,
        hours: config.WEBHOOK_RETRY_WINDOW_HOURS,
      });
      delivery.next_attempt_at = next;
      if (!next) {
        delivery.state = DELIVERY.gaveUp;
        // Down for the whole window: stop sending until someone looks. A replayed old delivery
        // that fails its single attempt gives up again without pausing the webhook.
        if (delivery.attempts > 1) pauseWebhook(webhook, 'retry_window', now);
      }
    }
    await accountFailure(tx, services, webhook, now);
  });
}

/**
 * The common case in one statement (no webhook lock, nothing to count): the attempt logged, the
 * delivery done, and live subscribers told, all when it commits.
 */
async function recordSuccess(services: AppServices, d: Claimed, at: Date, r: WebhookCallResult): Promise<void> {
  const attempt: LoggedAttempt = {
    id: newId(),
    delivery_id: d.id,
    type: d.type,
    attempted_at: at,
    success: true,
    status: r.status,
    duration_ms: r.durationMs,
    response_excerpt: r.excerpt?.slice(0, 1000) ?? null,
    error: null,
  };
  const notice = attemptNotice({ id: d.webhook_id, account_id: d.account_id, domain_id: d.domain_id }, attempt);
  await new WebhookRepository(services.orm.em.fork()).recordDelivered(d.id, attempt, notice);
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(runners);
}

/** Attempts due deliveries until none is due or the time budget is spent; returns how many. */
export async function deliverDue(services: AppServices, budgetMs = 20_000): Promise<number> {
  const stop = Date.now() + budgetMs;
  let total = 0;
  for (;;) {
    const now = new Date();
    const lease = new Date(now.getTime() + leaseMs(services.config.WEBHOOK_TIMEOUT_MS));
    const claimed = await new WebhookRepository(services.orm.em.fork()).claimDue(now, lease, CLAIM_BATCH);
    await pool(claimed, IN_FLIGHT, async (d) => {
      try {
        await attempt(services, d);
      } catch (err) {
        // The lease makes it due again later; one broken delivery must not stop the others.
        services.log.error({ err, delivery: d.id }, 'webhook delivery could not be recorded');
      }
    });
    total += claimed.length;
    if (claimed.length < CLAIM_BATCH || Date.now() > stop) return total;
  }
}

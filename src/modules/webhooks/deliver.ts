import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decrypt } from '../../lib/secrets.js';
import { newId } from '../../lib/ids.js';
import type { AppServices } from '../../services.js';
import { accountFailure, pauseWebhook } from './accounting.js';
import { postWebhook, type WebhookCallResult } from './http.js';
import { nextAttemptAt } from './schedule.js';
import { signatureHeaders } from './sign.js';
import { Webhook, WebhookAttempt, WebhookDelivery } from './webhook.entity.js';
import { CHANNEL } from '../../lib/pubsub.js';
import { toWebhookLogEntry } from './log.type.js';

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

interface Claimed {
  id: string;
  webhook_id: string;
  body: string;
  url: string;
  secret_enc: string;
}

/** Due deliveries of enabled, unpaused webhooks, oldest due first, leased to this worker. */
export async function claimDue(em: EntityManager, now: Date, lease: number, limit = CLAIM_BATCH): Promise<Claimed[]> {
  return em.execute<Claimed[]>(
    `update webhook_deliveries d set next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
       from webhooks w
      where w.id = d.webhook_id and d.id in (
        select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
         where d2.state = 'pending' and d2.next_attempt_at <= ?::timestamptz
           and w2.enabled and w2.paused_reason is null
         order by d2.next_attempt_at limit ? for update of d2 skip locked)
      returning d.id, d.webhook_id, d.body, w.url, w.secret_enc`,
    [new Date(now.getTime() + lease).toISOString(), now.toISOString(), now.toISOString(), limit],
  );
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
  await recordOutcome(services, d.id, at, result);
}

/**
 * Writes the attempt to the log and moves the delivery on. A failure takes a transaction with the
 * webhook row locked, so the failure accounting of concurrent attempts counts each exactly once;
 * a success needs neither (successes of one webhook must not queue behind each other on it).
 */
export async function recordOutcome(services: AppServices, deliveryId: string, at: Date, r: WebhookCallResult): Promise<void> {
  if (r.ok) return recordSuccess(services, deliveryId, at, r);
  const { config } = services;
  await services.orm.em.fork().transactional(async (tx) => {
    const delivery = await tx.findOneOrFail(WebhookDelivery, { id: deliveryId });
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
    } as never);
    await tx.flush();
    await notifyAttempt(tx, webhook, logged);
    delivery.attempts += 1;
    delivery.last_status = r.status;
    const now = new Date();
    if (r.ok) {
      delivery.state = 'delivered';
      delivery.next_attempt_at = null;
      return;
    }
    if (r.gone) {
      delivery.state = 'failed';
      delivery.next_attempt_at = null;
      pauseWebhook(webhook, 'gone', now);
    } else if (r.permanent) {
      delivery.state = 'failed';
      delivery.next_attempt_at = null;
    } else {
      const next = nextAttemptAt(delivery.attempts, now, Math.random, r.retryAfterSeconds, {
        createdAt: delivery.created_at,
        hours: config.WEBHOOK_RETRY_WINDOW_HOURS,
      });
      delivery.next_attempt_at = next;
      if (!next) {
        delivery.state = 'gave_up';
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
async function recordSuccess(services: AppServices, deliveryId: string, at: Date, r: WebhookCallResult): Promise<void> {
  await services.orm.em.fork().execute(
    `with a as (
       insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
       select ?, d.webhook_id, d.id, d.type, ?::timestamptz, true, ?, ?, ?, null from webhook_deliveries d where d.id = ?
       returning *
     ),
     u as (
       update webhook_deliveries set state = 'delivered', attempts = attempts + 1, last_status = ?,
              next_attempt_at = null, updated_at = now() where id = ?
     )
     select pg_notify(?, json_build_object(
              'topic', 'webhook_attempts:' || w.account_id,
              'detail', json_build_object('webhook_id', w.id, 'domain_id', w.domain_id, 'entry', json_build_object(
                'id', a.id, 'delivery_id', a.delivery_id, 'type', a.type, 'attempted_at', a.attempted_at, 'success', a.success,
                'status', a.status, 'duration_ms', a.duration_ms, 'response_excerpt', a.response_excerpt, 'error', a.error)))::text)
       from a join webhooks w on w.id = a.webhook_id`,
    [newId(), at.toISOString(), r.status, r.durationMs, r.excerpt?.slice(0, 1000) ?? null, deliveryId, r.status, deliveryId, CHANNEL],
  );
}

/**
 * Tells live `webhook_deliveries` subscribers (in any process) of the attempt, when and only if
 * its transaction commits.
 */
async function notifyAttempt(tx: EntityManager, webhook: Webhook, a: WebhookAttempt): Promise<void> {
  const detail = { webhook_id: webhook.id, domain_id: webhook.domain?.id ?? null, entry: toWebhookLogEntry(a) };
  await tx.execute('select pg_notify(?, ?)', [CHANNEL, JSON.stringify({ topic: `webhook_attempts:${webhook.account.id}`, detail })]);
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
    const claimed = await claimDue(services.orm.em.fork() as EntityManager, new Date(), leaseMs(services.config.WEBHOOK_TIMEOUT_MS));
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

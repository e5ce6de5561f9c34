import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { escapeHtml } from '../../lib/html.js';
import type { AppServices } from '../../core/services.js';
import { systemMailJob } from '../../modules/mail/system-mail.job.js';
import { ADMIN_ROLE } from '../../modules/users/roles.js';
import { AccountUser } from '../../modules/users/user.entity.js';
import { WEBHOOK_KIND, type Webhook, type WebhookPause } from '../../modules/webhooks/webhook.entity.js';
import { WebhookRepository } from '../../modules/webhooks/webhook.repository.js';

/** SPEC.md "Delivery and failure": failures within 24 hours that notify, then pause. */
export const NOTIFY_AT = 10;
export const PAUSE_AT = 20;
const WINDOW_MS = 24 * 3600_000;

export type AccountingOutcome = 'none' | 'notified' | 'paused';

/** Stops a webhook: no new deliveries, and its pending ones wait until it is re-enabled. */
export function pauseWebhook(webhook: Webhook, reason: WebhookPause, now: Date): void {
  webhook.enabled = false;
  webhook.paused_reason = reason;
  webhook.paused_at = now;
}

/**
 * Where the current failure window starts: 24 hours back, or the last successful test request
 * if later. A create or an update (which is how a paused webhook is re-enabled) sends that test,
 * so failures from before the receiver was fixed do not pause it again at the first new one.
 */
async function windowStart(tx: EntityManager, webhookId: string, now: Date): Promise<Date> {
  const tested = await new WebhookRepository(tx).lastPassedTest(webhookId);
  const dayAgo = now.getTime() - WINDOW_MS;
  return new Date(Math.max(dayAgo, tested?.getTime() ?? 0));
}

/**
 * The failure window of a webhook and the failed attempts in it, those just written included.
 * Read once per webhook per round, with the webhook row locked by the caller, so every failure
 * is counted exactly once whichever worker records it.
 */
export async function failureWindow(tx: EntityManager, webhookId: string, now: Date): Promise<{ since: Date; failures: number }> {
  const since = await windowStart(tx, webhookId, now);
  return { since, failures: await new WebhookRepository(tx).failuresSince(webhookId, since) };
}

/**
 * Counts one failed attempt (already written) against its webhook, whose row the caller holds
 * locked in `tx`; `failures` is the count in the window up to and including this attempt, so a
 * round's failures of one webhook are accounted one after another, as if recorded one by one:
 * at NOTIFY_AT the account's admins get one email for the window, at PAUSE_AT the webhook is
 * paused. Both happen in the caller's transaction, with the attempts that caused them.
 * SPEC.md sets these thresholds "for email webhooks" only: SMS webhooks and inbound-route targets
 * are stopped by a 410 or by the retry window alone (round.record.ts).
 */
export async function accountFailure(
  tx: EntityManager,
  services: Pick<AppServices, 'boss' | 'config'>,
  webhook: Webhook,
  now: Date,
  window: { since: Date; failures: number },
): Promise<AccountingOutcome> {
  if (webhook.kind !== WEBHOOK_KIND.email || !webhook.enabled || webhook.paused_reason) return 'none';
  const { since, failures } = window;
  if (failures >= PAUSE_AT) {
    pauseWebhook(webhook, 'failures', now);
    return 'paused';
  }
  if (failures < NOTIFY_AT) return 'none';
  if (webhook.notified_at && webhook.notified_at.getTime() > since.getTime()) return 'none';
  webhook.notified_at = now;
  await notifyAdmins(tx, services, webhook, failures);
  return 'notified';
}

async function notifyAdmins(
  tx: EntityManager,
  services: Pick<AppServices, 'boss' | 'config'>,
  webhook: Webhook,
  failures: number,
): Promise<void> {
  const admins = await tx.find(AccountUser, { account: webhook.account.id, role: ADMIN_ROLE });
  const subject = `Webhook "${webhook.name}" is failing`;
  const text = [
    `Your webhook "${webhook.name}" (${webhook.url}) has failed ${failures} times in the last 24 hours.`,
    '',
    `If it fails ${PAUSE_AT} times within 24 hours it will be paused, and no events will be sent to it`,
    'until you re-enable it. Its log shows each attempt with the answer received.',
  ].join('\n');
  const html = [
    `<p>Your webhook <strong>${escapeHtml(webhook.name)}</strong> (${escapeHtml(webhook.url)}) has failed ${failures} times in the last 24 hours.</p>`,
    `<p>If it fails ${PAUSE_AT} times within 24 hours it will be paused, and no events will be sent to it until you re-enable it. Its log shows each attempt with the answer received.</p>`,
  ].join('\n');
  for (const admin of admins) {
    const about = { account_id: webhook.account.id, ...(webhook.domain ? { domain_id: webhook.domain.id } : {}) };
    await enqueue(tx, services.boss, systemMailJob, { to: admin.email, from: services.config.MAIL_FROM, subject, text, html, kind: 'webhook_failing', ...about });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { takenIfDuplicate } from '../../db/unique.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { created, diff, recordAudit, recordUpdate, type AuditSubject } from '../audit/audit.record.js';
import { webhookUrlProblem } from '../../lib/webhook-http.js';
import { logTestRequest, sendTestRequest, testFailure } from './test-request.js';
import { WEBHOOK_KIND, Webhook } from './webhook.entity.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';

/**
 * Creating and changing a webhook a customer registers (email or SMS). Every create and every
 * update first sends the signed `webhook.test` request (SPEC.md); only a 2xx answer lets the
 * change be saved, except an update that leaves the webhook off (see updateWebhookRow).
 */
type Services = Pick<AppServices, 'config' | 'dns'>;

/** Where a webhook hangs (its domain, or its SMS number) and how URLs are kept unique there. */
export interface WebhookOwner {
  /** Fields of the row that place it: `{kind: 'email', domain}` or `{kind: 'sms', domain: null, sms_number}`. */
  fields: Pick<Webhook, 'kind' | 'domain'> & Partial<Pick<Webhook, 'sms_number'>>;
  /** Whether another webhook of the same owner already has this URL. */
  taken(url: string, exceptId: string | null): Promise<boolean>;
}

/** What the audit log calls a registered webhook: SMS webhooks are their own kind of subject. */
function auditSubject(webhook: Webhook): AuditSubject & { type: 'webhook' | 'sms_webhook' } {
  return { type: webhook.kind === WEBHOOK_KIND.sms ? 'sms_webhook' : 'webhook', id: webhook.id, domainId: webhook.domain?.id ?? null };
}

const snapshot = (w: Webhook) => ({ url: w.url, name: w.name, events: w.events, enabled: w.enabled, paused_reason: w.paused_reason });

export function checkUrl(url: string, bag: FieldErrorBag): void {
  if (!url) bag.add('url', msg.required('url'));
  else if (webhookUrlProblem(url)) bag.add('url', msg.url('url'));
}

/** The name and events rules every create shares; the caller adds its owner's own. */
export function checkNew(args: { url: string; name: string; events: string[] }, bag: FieldErrorBag) {
  const url = args.url.trim();
  const name = args.name.trim();
  checkUrl(url, bag);
  if (!name) bag.add('name', msg.required('name'));
  if (!args.events.length) bag.add('events', msg.required('events'));
  return { url, name };
}

export async function createWebhookRow(
  em: EntityManager,
  services: Services,
  auth: Actor,
  owner: WebhookOwner | null,
  args: { url: string; name: string; events: string[]; enabled?: boolean | null },
  bag: FieldErrorBag,
): Promise<Webhook> {
  if (owner && !bag.has('url') && (await owner.taken(args.url, null))) bag.add('url', msg.taken('url'));
  bag.throwIfAny();
  const result = await sendTestRequest(services, args.url);
  if (!result.ok) throw errors.invalid('url', testFailure(result));
  const webhook = em.create(Webhook, {
    account: em.getReference(Account, auth.accountId),
    ...owner!.fields,
    name: args.name,
    url: args.url,
    events: [...new Set(args.events)],
    enabled: args.enabled ?? true,
    secret_enc: encrypt(services.config.APP_SECRET, randomSecret()),
  });
  const subject = auditSubject(webhook);
  const owned = webhook.sms_number ? { sms_number_id: webhook.sms_number.id } : { domain_id: webhook.domain?.id ?? null };
  recordAudit(em, auth, `${subject.type}.created`, subject, created({ name: webhook.name, url: webhook.url, events: webhook.events, enabled: webhook.enabled, ...owned }));
  await takenIfDuplicate('url', () => em.flush());
  await logTestRequest(em, webhook.id, result);
  return webhook;
}

export async function updateWebhookRow(
  em: EntityManager,
  services: Services,
  auth: Actor,
  webhook: Webhook,
  owner: WebhookOwner,
  args: { url?: string | null; name?: string | null; events?: string[] | null; enabled?: boolean | null },
): Promise<Webhook> {
  const bag = new FieldErrorBag();
  const url = args.url?.trim() ?? webhook.url;
  const name = args.name?.trim() ?? webhook.name;
  if (args.url != null) checkUrl(url, bag);
  if (!name) bag.add('name', msg.required('name'));
  if (args.events && !args.events.length) bag.add('events', msg.required('events'));
  const urlChanged = url !== webhook.url;
  if (urlChanged && !bag.has('url') && (await owner.taken(url, webhook.id))) bag.add('url', msg.taken('url'));
  bag.throwIfAny();

  // SPEC.md: every update sends the test request, whatever it changes. A failed answer refuses
  // the update, unless the webhook is off after it (disabled, or paused and not re-enabled): it
  // then calls nobody, and refusing would keep a customer from switching off or renaming a
  // webhook whose receiver is down. Turning it on again tests the URL again.
  const result = await sendTestRequest(services, url);
  // The attempt is logged even when the change is refused: the webhook exists.
  await logTestRequest(em, webhook.id, result);
  const offAfter = args.enabled === false || (args.enabled !== true && (!webhook.enabled || webhook.paused_reason !== null));
  if (!result.ok && !offAfter) throw errors.invalid('url', testFailure(result));
  const before = snapshot(webhook);
  webhook.url = url;
  webhook.name = name;
  if (args.events) webhook.events = [...new Set(args.events)];
  if (args.enabled != null) webhook.enabled = args.enabled;
  if (args.enabled === true) {
    webhook.paused_reason = null;
    webhook.paused_at = null;
    webhook.notified_at = null;
  }
  const subject = auditSubject(webhook);
  recordUpdate(em, auth, `${subject.type}.updated`, subject, diff(before, snapshot(webhook)));
  await takenIfDuplicate('url', () => em.flush());
  return webhook;
}

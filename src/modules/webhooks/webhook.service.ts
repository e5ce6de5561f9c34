import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { assertDomainAccess } from '../../graphql/auth.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf, pageMeta } from '../../graphql/pagination.js';
import { isoTimestamp } from '../../graphql/scalars.js';
import { FieldErrorBag } from '../../graphql/validation.js';
import { findOwned } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { newId } from '../../lib/ids.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { postWebhook, webhookUrlProblem, type WebhookCallResult } from './http.js';
import { signatureHeaders } from './sign.js';
import { Webhook, WebhookAttempt } from './webhook.entity.js';
import type { CreateWebhookArgs, UpdateWebhookArgs, WebhookListArgs } from './webhook.inputs.js';

export const TEST_EVENT = 'webhook.test';
const TEST_MESSAGE = 'This is a test request to check that the webhook URL accepts events.';

/** Why the URL failed its test request, as the 422 on `url` says it. */
function testFailure(result: WebhookCallResult): string {
  if (result.status !== null) return `The url answered the test request with HTTP ${result.status}; a 2xx answer is required.`;
  return `The url could not be reached by the test request: ${result.error}.`;
}

/**
 * Email webhooks of the account. Every create, and every update that changes where or whether
 * events go (a new url, or enabled turned on), first sends the signed `webhook.test` request;
 * only a 2xx answer lets the change be saved.
 */
export class WebhookService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'dns'>,
  ) {}

  async list(auth: Auth, args: WebhookListArgs) {
    const domain = await findOwned(this.em, Domain, auth, { id: args.domain_id });
    assertDomainAccess(auth, domain.id);
    const [rows, total] = await this.em.findAndCount(
      Webhook,
      { account: auth.accountId, domain: domain.id },
      { populate: ['domain'], orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Auth, id: string): Promise<Webhook> {
    // Only email webhooks: SMS webhooks and inbound-route targets live in the same table.
    return findOwned(this.em, Webhook, auth, { id, kind: 'email' }, ['domain']);
  }

  async create(auth: Auth, args: CreateWebhookArgs): Promise<Webhook> {
    const bag = new FieldErrorBag();
    const url = args.url.trim();
    const name = args.name.trim();
    this.checkUrl(url, bag);
    if (!name) bag.add('name', msg.required('name'));
    if (!args.events.length) bag.add('events', msg.required('events'));
    const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
    if (!domain) bag.add('domain_id', msg.in('domain_id'));
    else assertDomainAccess(auth, domain.id);
    if (domain && !bag.has('url')) await this.checkTaken(domain.id, url, null, bag);
    bag.throwIfAny();

    const result = await this.sendTest(url);
    if (!result.ok) throw errors.invalid('url', testFailure(result));
    const webhook = this.em.create(Webhook, {
      account: this.em.getReference(Account, auth.accountId),
      domain: domain!,
      name,
      url,
      events: [...new Set(args.events)],
      enabled: args.enabled ?? true,
      secret_enc: encrypt(this.services.config.APP_SECRET, randomSecret()),
    } as never);
    await takenIfDuplicate('url', () => this.em.flush());
    await this.logTest(webhook.id, result);
    return webhook;
  }

  async update(auth: Auth, args: UpdateWebhookArgs): Promise<Webhook> {
    const webhook = await this.get(auth, args.webhook_id);
    const bag = new FieldErrorBag();
    const url = args.url?.trim() ?? webhook.url;
    const name = args.name?.trim() ?? webhook.name;
    if (args.url != null) this.checkUrl(url, bag);
    if (!name) bag.add('name', msg.required('name'));
    if (args.events && !args.events.length) bag.add('events', msg.required('events'));
    const urlChanged = url !== webhook.url;
    if (urlChanged && !bag.has('url')) await this.checkTaken(webhook.domain!.id, url, webhook.id, bag);
    bag.throwIfAny();

    // A paused webhook counts as off, whatever its enabled flag says.
    const reenabling = args.enabled === true && (!webhook.enabled || webhook.paused_reason !== null);
    if (urlChanged || reenabling) {
      const result = await this.sendTest(url);
      // The attempt is logged even when the change is refused: the webhook exists.
      await this.logTest(webhook.id, result);
      if (!result.ok) throw errors.invalid('url', testFailure(result));
    }
    webhook.url = url;
    webhook.name = name;
    if (args.events) webhook.events = [...new Set(args.events)];
    if (args.enabled != null) webhook.enabled = args.enabled;
    if (args.enabled === true) {
      webhook.paused_reason = null;
      webhook.paused_at = null;
      webhook.notified_at = null;
    }
    await takenIfDuplicate('url', () => this.em.flush());
    return webhook;
  }

  async remove(auth: Auth, id: string): Promise<boolean> {
    const webhook = await this.get(auth, id);
    await this.em.remove(webhook).flush();
    return true;
  }

  private checkUrl(url: string, bag: FieldErrorBag) {
    if (!url) bag.add('url', msg.required('url'));
    else if (webhookUrlProblem(url)) bag.add('url', msg.url('url'));
  }

  private async checkTaken(domainId: string, url: string, exceptId: string | null, bag: FieldErrorBag) {
    const where: Record<string, unknown> = { domain: domainId, url };
    if (exceptId) where.id = { $ne: exceptId };
    if (await this.em.count(Webhook, where)) bag.add('url', msg.taken('url'));
  }

  /** The `webhook.test` request, signed with the fixed test secret (all four headers). */
  private sendTest(url: string): Promise<WebhookCallResult> {
    const { config, dns } = this.services;
    const at = new Date();
    const body = JSON.stringify({ type: TEST_EVENT, message: TEST_MESSAGE, created_at: isoTimestamp(at) });
    return postWebhook({
      url,
      body,
      headers: signatureHeaders(config.WEBHOOK_TEST_SECRET, body, `msg_${newId(24)}`, at),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      dns,
    });
  }

  private async logTest(webhookId: string, result: WebhookCallResult) {
    await this.em.insert(WebhookAttempt, {
      id: newId(),
      webhook_id: webhookId,
      delivery_id: null,
      type: TEST_EVENT,
      attempted_at: new Date(),
      success: result.ok,
      status: result.status,
      duration_ms: result.durationMs,
      response_excerpt: result.excerpt,
      error: result.error?.slice(0, 1000) ?? null,
    });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { assertDomainAccess } from '../../graphql/auth.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf, pageMeta } from '../../graphql/pagination.js';
import { FieldErrorBag } from '../../graphql/validation.js';
import { findOwned } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { webhookUrlProblem } from './http.js';
import { logTestRequest, sendTestRequest, testFailure } from './test-request.js';
import { Webhook } from './webhook.entity.js';
import type { CreateWebhookArgs, UpdateWebhookArgs, WebhookListArgs } from './webhook.inputs.js';

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

    const result = await sendTestRequest(this.services, url);
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
    await logTestRequest(this.em, webhook.id, result);
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
      const result = await sendTestRequest(this.services, url);
      // The attempt is logged even when the change is refused: the webhook exists.
      await logTestRequest(this.em, webhook.id, result);
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
}

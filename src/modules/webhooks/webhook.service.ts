import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import type { AppServices } from '../../core/services.js';
import { recordAudit, removed } from '../audit/audit.record.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import { Domain } from '../domains/domain.entity.js';
import { checkNew, createWebhookRow, updateWebhookRow, type WebhookOwner } from './registration.js';
import { WEBHOOK_KIND, Webhook } from './webhook.entity.js';
import type { CreateWebhookArgs, UpdateWebhookArgs, WebhookListArgs } from './webhook.inputs.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
import { msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta } from '../../core/page.js';

/**
 * Email webhooks of the account. Every create and every update first sends the signed
 * `webhook.test` request (SPEC.md); only a 2xx answer lets the change be saved, except an update
 * that leaves the webhook off (registration.ts).
 */
export class WebhookService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'dns'>,
  ) {}

  async list(auth: Actor, args: WebhookListArgs) {
    const domain = await findOwned(this.em, Domain, auth, { id: args.domain_id });
    assertDomainAccess(auth, domain.id);
    const [rows, total] = await this.em.findAndCount(
      Webhook,
      { account: auth.accountId, domain: domain.id },
      { populate: ['domain'], orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<Webhook> {
    // Only email webhooks: SMS webhooks and inbound-route targets live in the same table.
    return findOwned(this.em, Webhook, auth, { id, kind: WEBHOOK_KIND.email }, ['domain']);
  }

  async create(auth: Actor, args: CreateWebhookArgs): Promise<Webhook> {
    const bag = new FieldErrorBag();
    const { url, name } = checkNew(args, bag);
    const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
    if (!domain) bag.add('domain_id', msg.in('domain_id'));
    else assertDomainAccess(auth, domain.id);
    // No domain means a bag error: createWebhookRow throws before it needs the owner.
    return createWebhookRow(this.em, this.services, auth, domain && this.owner(domain.id), { ...args, url, name }, bag);
  }

  async update(auth: Actor, args: UpdateWebhookArgs): Promise<Webhook> {
    const webhook = await this.get(auth, args.webhook_id);
    return updateWebhookRow(this.em, this.services, auth, webhook, this.owner(webhook.domain!.id), args);
  }

  /**
   * A new signing secret, in force from the next request (retries of earlier deliveries too: they
   * are signed when sent). The audit log names the change, never the secret.
   */
  async rotateSecret(auth: Actor, id: string): Promise<Webhook> {
    const webhook = await this.get(auth, id);
    webhook.secret_enc = encrypt(this.services.config.APP_SECRET, randomSecret());
    recordAudit(this.em, auth, 'webhook.updated', { type: 'webhook', id: webhook.id, domainId: webhook.domain?.id ?? null }, { secret: {} });
    await this.em.flush();
    return webhook;
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const webhook = await this.get(auth, id);
    recordAudit(this.em, auth, 'webhook.deleted', { type: 'webhook', id: webhook.id, domainId: webhook.domain?.id ?? null }, removed({ name: webhook.name }));
    await this.em.remove(webhook).flush();
    return true;
  }

  /** One URL once per domain (the unique index agrees). */
  private owner(domainId: string): WebhookOwner {
    return {
      fields: { kind: WEBHOOK_KIND.email, domain: this.em.getReference(Domain, domainId) },
      taken: async (url, exceptId) => (await this.em.count(Webhook, { domain: domainId, url, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0,
    };
  }
}

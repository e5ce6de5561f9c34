import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import type { AppServices } from '../../core/services.js';
import { recordAudit, removed } from '../audit/audit.record.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { checkNew, createWebhookRow, updateWebhookRow, type WebhookOwner } from '../webhooks/registration.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import type { CreateSmsWebhookArgs, SmsWebhookListArgs, UpdateSmsWebhookArgs } from './sms-webhook.inputs.js';
import { type Actor } from '../../core/actor.js';
import { msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/**
 * SMS webhooks: `webhooks` rows of kind `sms`, one SMS number each, no domain. Like email
 * webhooks, every create and every update that changes where or whether events go (a new url,
 * or enabled turned on) first sends the signed `webhook.test` request; only a 2xx saves it.
 */
export class SmsWebhookService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'dns'>,
  ) {}

  async list(auth: Actor, args: SmsWebhookListArgs): Promise<Webhook[]> {
    const number = await findOwned(this.em, SmsNumber, auth, { id: args.sms_number_id });
    return this.em.find(
      Webhook,
      { ...visibleTo(auth, null), kind: 'sms', sms_number: number.id },
      { populate: ['sms_number'], orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
  }

  get(auth: Actor, id: string): Promise<Webhook> {
    return findOwned(this.em, Webhook, auth, { id, kind: 'sms' }, ['sms_number']);
  }

  async create(auth: Actor, args: CreateSmsWebhookArgs): Promise<Webhook> {
    const bag = new FieldErrorBag();
    const { url, name } = checkNew(args, bag);
    const number = await this.em.findOne(SmsNumber, { id: args.sms_number_id, ...visibleTo(auth, null) });
    if (!number) bag.add('sms_number_id', msg.in('sms_number_id'));
    // No number means a bag error: createWebhookRow throws before it needs the owner.
    return createWebhookRow(this.em, this.services, auth, number && this.owner(number), { ...args, url, name }, bag);
  }

  async update(auth: Actor, args: UpdateSmsWebhookArgs): Promise<Webhook> {
    const webhook = await this.get(auth, args.sms_webhook_id);
    return updateWebhookRow(this.em, this.services, auth, webhook, this.owner(webhook.sms_number!), args);
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const webhook = await this.get(auth, id);
    recordAudit(this.em, auth, 'sms_webhook.deleted', { type: 'sms_webhook', id: webhook.id }, removed({ name: webhook.name, sms_number_id: webhook.sms_number?.id }));
    await this.em.remove(webhook).flush();
    return true;
  }

  /** One URL once per SMS number (the unique index agrees); other numbers may reuse it. */
  private owner(number: SmsNumber): WebhookOwner {
    return {
      fields: { kind: 'sms', domain: null, sms_number: number },
      taken: async (url, exceptId) =>
        (await this.em.count(Webhook, { sms_number: number.id, kind: 'sms', url, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0,
    };
  }
}

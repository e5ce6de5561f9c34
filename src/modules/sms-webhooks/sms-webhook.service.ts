import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf } from '../../graphql/pagination.js';
import { FieldErrorBag } from '../../graphql/validation.js';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { webhookUrlProblem } from '../webhooks/http.js';
import { logTestRequest, sendTestRequest, testFailure } from '../webhooks/test-request.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import type { CreateSmsWebhookArgs, SmsWebhookListArgs, UpdateSmsWebhookArgs } from './sms-webhook.inputs.js';

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

  async list(auth: Auth, args: SmsWebhookListArgs): Promise<Webhook[]> {
    const number = await findOwned(this.em, SmsNumber, auth, { id: args.sms_number_id });
    return this.em.find(
      Webhook,
      { ...visibleTo(auth, null), kind: 'sms', sms_number: number.id },
      { populate: ['sms_number'], orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
  }

  get(auth: Auth, id: string): Promise<Webhook> {
    return findOwned(this.em, Webhook, auth, { id, kind: 'sms' }, ['sms_number']);
  }

  async create(auth: Auth, args: CreateSmsWebhookArgs): Promise<Webhook> {
    const bag = new FieldErrorBag();
    const url = args.url.trim();
    const name = args.name.trim();
    checkUrl(url, bag);
    if (!name) bag.add('name', msg.required('name'));
    if (!args.events.length) bag.add('events', msg.required('events'));
    const number = await this.em.findOne(SmsNumber, { id: args.sms_number_id, ...visibleTo(auth, null) });
    if (!number) bag.add('sms_number_id', msg.in('sms_number_id'));
    if (number && !bag.has('url')) await this.checkTaken(number.id, url, null, bag);
    bag.throwIfAny();

    const result = await sendTestRequest(this.services, url);
    if (!result.ok) throw errors.invalid('url', testFailure(result));
    const webhook = this.em.create(Webhook, {
      account: this.em.getReference(Account, auth.accountId),
      kind: 'sms',
      domain: null,
      sms_number: number!,
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

  async update(auth: Auth, args: UpdateSmsWebhookArgs): Promise<Webhook> {
    const webhook = await this.get(auth, args.sms_webhook_id);
    const bag = new FieldErrorBag();
    const url = args.url?.trim() ?? webhook.url;
    const name = args.name?.trim() ?? webhook.name;
    if (args.url != null) checkUrl(url, bag);
    if (!name) bag.add('name', msg.required('name'));
    if (args.events && !args.events.length) bag.add('events', msg.required('events'));
    const urlChanged = url !== webhook.url;
    if (urlChanged && !bag.has('url')) await this.checkTaken(webhook.sms_number!.id, url, webhook.id, bag);
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

  /** One URL once per SMS number (the unique index agrees); other numbers may reuse it. */
  private async checkTaken(smsNumberId: string, url: string, exceptId: string | null, bag: FieldErrorBag) {
    const where: Record<string, unknown> = { sms_number: smsNumberId, kind: 'sms', url };
    if (exceptId) where.id = { $ne: exceptId };
    if (await this.em.count(Webhook, where)) bag.add('url', msg.taken('url'));
  }
}

function checkUrl(url: string, bag: FieldErrorBag) {
  if (!url) bag.add('url', msg.required('url'));
  else if (webhookUrlProblem(url)) bag.add('url', msg.url('url'));
}

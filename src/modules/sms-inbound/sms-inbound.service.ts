import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { SmsInbound } from '../sms/sms.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import type { CreateSmsInboundArgs, SimulateSmsInboundArgs, SmsInboundListArgs, UpdateSmsInboundArgs } from './sms-inbound.inputs.js';
import { receiveSmsInbound, type Received } from './sms-inbound.receive.js';
import { E164 } from '../sms-numbers/phone.js';
import { newId } from '../../lib/ids.js';
import { SmsInboundRepository } from './sms-inbound.repository.js';
import { checkFilter, checkForwardUrl, checkName } from './sms-inbound.validate.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';

/** A route and the `webhooks` row (kind sms_inbound) through which the engine delivers its texts. */
export interface RouteWithTarget {
  route: SmsInbound;
  webhook: Webhook;
}

/**
 * SMS inbound routes of the account. A route and its webhook row are written in one flush (one
 * transaction): the row holds the URL, the sealed secret and whether deliveries go out.
 */
export class SmsInboundService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config'>,
  ) {}

  async list(auth: Actor, args: SmsInboundListArgs): Promise<RouteWithTarget[]> {
    if (args.sms_number_id) await findOwned(this.em, SmsNumber, auth, { id: args.sms_number_id });
    const ids = await new SmsInboundRepository(this.em).pageIds(auth.accountId, { smsNumberId: args.sms_number_id, enabled: args.enabled }, args);
    const routes = await this.em.find(SmsInbound, { id: { $in: ids } });
    const webhooks = await this.em.find(Webhook, { id: { $in: routes.map((r) => r.webhook_id) } });
    const byId = new Map(webhooks.map((w) => [w.id, w]));
    return ids
      .map((id) => routes.find((r) => r.id === id)!)
      .map((route) => ({ route, webhook: byId.get(route.webhook_id)! }));
  }

  async get(auth: Actor, id: string): Promise<RouteWithTarget> {
    const route = await findOwned(this.em, SmsInbound, auth, { id }, ['sms_number']);
    const webhook = await this.em.findOneOrFail(Webhook, { id: route.webhook_id });
    return { route, webhook };
  }

  async create(auth: Actor, args: CreateSmsInboundArgs): Promise<RouteWithTarget> {
    const bag = new FieldErrorBag();
    const url = args.forward_url.trim();
    checkName(bag, args.name);
    checkForwardUrl(bag, url, this.services.config.WEBHOOK_ALLOW_PRIVATE);
    if (args.filter) checkFilter(bag, args.filter);
    const number = await this.ownNumber(auth, args.sms_number_id);
    if (!number) bag.add('sms_number_id', msg.in('sms_number_id'));
    else if (!bag.has('forward_url')) await this.checkUrlFree(bag, number.id, url, null);
    bag.throwIfAny();

    const account = this.em.getReference(Account, auth.accountId);
    const enabled = args.enabled ?? true;
    const name = args.name.trim();
    const webhook = this.em.create(Webhook, {
      account,
      kind: 'sms_inbound',
      domain: null,
      sms_number: number!,
      name,
      url,
      events: [],
      enabled,
      secret_enc: encrypt(this.services.config.APP_SECRET, randomSecret()),
    });
    const route = this.em.create(SmsInbound, {
      account,
      sms_number: number!,
      name,
      filter_comparer: args.filter?.comparer ?? null,
      filter_value: args.filter?.value ?? null,
      forward_url: url,
      enabled,
      webhook_id: webhook.id,
    });
    await takenIfDuplicate('forward_url', () => this.em.flush());
    return { route, webhook };
  }

  async update(auth: Actor, args: UpdateSmsInboundArgs): Promise<RouteWithTarget> {
    const { route, webhook } = await this.get(auth, args.sms_inbound_id);
    const bag = new FieldErrorBag();
    if (args.name != null) checkName(bag, args.name);
    if (args.forward_url != null) checkForwardUrl(bag, args.forward_url, this.services.config.WEBHOOK_ALLOW_PRIVATE);
    if (args.filter) checkFilter(bag, args.filter);
    let number = route.sms_number;
    if (args.sms_number_id != null && args.sms_number_id !== number.id) {
      const found = await this.ownNumber(auth, args.sms_number_id);
      if (!found) bag.add('sms_number_id', msg.in('sms_number_id'));
      else number = found;
    }
    const url = args.forward_url?.trim() ?? route.forward_url;
    const moved = url !== route.forward_url || number.id !== route.sms_number.id;
    if (moved && !bag.has('forward_url') && !bag.has('sms_number_id')) await this.checkUrlFree(bag, number.id, url, webhook.id);
    bag.throwIfAny();

    if (args.name != null) route.name = webhook.name = args.name.trim();
    route.forward_url = webhook.url = url;
    route.sms_number = webhook.sms_number = number;
    if (args.filter !== undefined) {
      route.filter_comparer = args.filter?.comparer ?? null;
      route.filter_value = args.filter?.value ?? null;
    }
    if (args.enabled != null) route.enabled = webhook.enabled = args.enabled;
    if (args.enabled === true) {
      // Turning a route on again is how a target the engine paused is resumed.
      webhook.paused_reason = null;
      webhook.paused_at = null;
      webhook.notified_at = null;
    }
    await takenIfDuplicate('forward_url', () => this.em.flush());
    return { route, webhook };
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const { route, webhook } = await this.get(auth, id);
    // The webhook row's pending deliveries go with it (their foreign key cascades).
    await this.em.remove(route).remove(webhook).flush();
    return true;
  }

  /**
   * A text as if `from` sent it to one of the account's numbers, in the SMS sandbox only: the
   * capture provider delivers every text at once and nothing calls it back, so this is how a
   * route is tried end to end. The text takes the path of one a provider posts.
   */
  async simulate(auth: Actor, args: SimulateSmsInboundArgs): Promise<Received> {
    if (this.services.config.SMS_PROVIDER !== 'capture') {
      throw errors.forbidden('Texts can be simulated in the SMS sandbox only (SMS_PROVIDER=capture): your provider delivers what your numbers receive.');
    }
    const number = await this.ownNumber(auth, args.sms_number_id);
    const bag = new FieldErrorBag();
    if (!number) bag.add('sms_number_id', msg.in('sms_number_id'));
    if (!E164.test(args.from)) bag.add('from', 'The from must be a phone number in E.164 format (e.g. +15551234567).');
    if (!args.text.trim()) bag.add('text', msg.required('text'));
    bag.throwIfAny();
    return receiveSmsInbound(this.em, { providerId: `cap_in_${newId(24)}`, from: args.from, to: number!.telephone_number, text: args.text });
  }

  private ownNumber(auth: Actor, id: string): Promise<SmsNumber | null> {
    return this.em.findOne(SmsNumber, { id, account: auth.accountId });
  }

  /** One number's routes cannot share a forward URL: each route owns a distinct webhook row. */
  private async checkUrlFree(bag: FieldErrorBag, numberId: string, url: string, exceptWebhookId: string | null) {
    const where: Record<string, unknown> = { sms_number: numberId, kind: 'sms_inbound', url };
    if (exceptWebhookId) where.id = { $ne: exceptWebhookId };
    if (await this.em.count(Webhook, where)) bag.add('forward_url', msg.taken('forward_url'));
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import type { SmsMessageListArgs } from './messages.inputs.js';
import { Sms, SmsMessage } from './sms.entity.js';
import { SmsRepository } from './sms.repository.js';
import { QUEUED_SMS } from './sms.statuses.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

export interface MessageView {
  message: SmsMessage;
  paused: boolean;
}

export class SmsMessageService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: SmsMessageListArgs): Promise<MessageView[]> {
    return (await this.page(auth, args)).rows;
  }

  /** One page with the full pager's meta (GET /v1/sms-messages). */
  async page(auth: Actor, args: SmsMessageListArgs): Promise<Page<MessageView>> {
    const [messages, total] = await this.em.findAndCount(SmsMessage, visibleTo(auth, null), {
      populate: ['sms_number'],
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows: await this.views(messages), meta: pageMeta(args, messages.length, total) };
  }

  private async views(messages: SmsMessage[]): Promise<MessageView[]> {
    // Only messages of paused numbers can wait.
    const waiting = await new SmsRepository(this.em).messagesWithQueued(messages.filter((m) => m.sms_number.paused).map((m) => m.id));
    return messages.map((message) => ({ message, paused: waiting.has(message.id) }));
  }

  async get(auth: Actor, id: string): Promise<MessageView & { sms: Sms[] }> {
    const message = await findOwned(this.em, SmsMessage, auth, { id }, ['sms_number']);
    const sms = await this.em.find(Sms, { message: message.id }, { orderBy: { created_at: 'asc', id: 'asc' } });
    const paused = message.sms_number.paused && sms.some((s) => s.status === QUEUED_SMS);
    return { message, paused, sms };
  }
}

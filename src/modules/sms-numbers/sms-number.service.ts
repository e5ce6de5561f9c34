import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import type { AppServices } from '../../core/services.js';
import { SmsNumber } from './sms-number.entity.js';
import { smsNumberResumed } from './sms-number.events.js';
import type { SmsNumberListArgs, UpdateSmsNumberArgs } from './sms-number.inputs.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

export class SmsNumberService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'boss'>,
  ) {}

  async list(auth: Actor, args: SmsNumberListArgs): Promise<SmsNumber[]> {
    return (await this.page(auth, args)).rows;
  }

  /** One page with the full pager's meta (GET /v1/sms-numbers); `paused` filters both. */
  async page(auth: Actor, args: SmsNumberListArgs): Promise<Page<SmsNumber>> {
    const where: Record<string, unknown> = visibleTo(auth, null);
    if (args.paused != null) where.paused = args.paused;
    const [rows, total] = await this.em.findAndCount(SmsNumber, where, { orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<SmsNumber> {
    return findOwned(this.em, SmsNumber, auth, { id });
  }

  /** Unpausing sends what waited for the number: the sms module handles `smsNumberResumed`. */
  async update(auth: Actor, args: UpdateSmsNumberArgs): Promise<SmsNumber> {
    return this.em.transactional(async (tx) => {
      const number = await findOwned(tx, SmsNumber, auth, { id: args.sms_number_id });
      const resumed = number.paused && !args.paused;
      number.paused = args.paused;
      await tx.flush();
      if (resumed) await smsNumberResumed.emit(tx, { sms_number_id: number.id }, this.services);
      return number;
    });
  }

  /** The number leaves the account with everything sent from it (messages, texts, activity). */
  async remove(auth: Actor, id: string): Promise<boolean> {
    const number = await this.get(auth, id);
    await this.em.remove(number).flush();
    return true;
  }
}

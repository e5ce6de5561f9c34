import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import type { SmsRecipientListArgs, UpdateSmsRecipientArgs } from './recipients.inputs.js';
import { Sms, SmsRecipient } from './sms.entity.js';
import { SmsRepository } from './sms.repository.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf } from '../../core/page.js';

/** How many of a recipient's texts its single view shows. */
export const RECENT_SMS = 25;

export class SmsRecipientService {
  constructor(private readonly em: EntityManager) {}

  /** Newest first. Another account's number in `sms_number_id` is a 404, like any id not found. */
  async list(auth: Actor, args: SmsRecipientListArgs): Promise<SmsRecipient[]> {
    const where: Record<string, unknown> = visibleTo(auth, null);
    if (args.status) where.status = args.status;
    if (args.sms_number_id) {
      const number = await findOwned(this.em, SmsNumber, auth, { id: args.sms_number_id });
      where.id = { $in: new SmsRepository(this.em).recipientsTextedFrom(number.id) };
    }
    return this.em.find(SmsRecipient, where, { orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) });
  }

  async get(auth: Actor, id: string): Promise<{ recipient: SmsRecipient; sms: Sms[] }> {
    const recipient = await findOwned(this.em, SmsRecipient, auth, { id });
    const sms = await this.em.find(Sms, { recipient: recipient.id }, { orderBy: { created_at: 'desc', id: 'desc' }, limit: RECENT_SMS });
    return { recipient, sms };
  }

  async update(auth: Actor, args: UpdateSmsRecipientArgs): Promise<{ recipient: SmsRecipient; sms: Sms[] }> {
    const recipient = await findOwned(this.em, SmsRecipient, auth, { id: args.sms_recipient_id });
    recipient.status = args.status;
    await this.em.flush();
    return this.get(auth, recipient.id);
  }
}

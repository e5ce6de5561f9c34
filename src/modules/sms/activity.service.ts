import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import type { SmsActivityArgs } from './activity.inputs.js';
import { SmsActivity } from './sms.entity.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf } from '../../core/page.js';
import { FieldErrorBag } from '../../core/errors.js';

export class SmsActivityService {
  constructor(private readonly em: EntityManager) {}

  /** Newest first. Another account's number in `sms_number_id` is a 404, like any id not found. */
  async list(auth: Actor, args: SmsActivityArgs): Promise<SmsActivity[]> {
    const bag = new FieldErrorBag();
    if (args.date_from != null && args.date_to != null && args.date_from > args.date_to) {
      bag.add('date_from', 'The date from must be a date before date to.');
      bag.add('date_to', 'The date to must be a date after date from.');
    }
    bag.throwIfAny();
    const where: Record<string, unknown> = visibleTo(auth, null);
    if (args.sms_number_id) where.sms_number = (await findOwned(this.em, SmsNumber, auth, { id: args.sms_number_id })).id;
    const created: Record<string, Date> = {};
    if (args.date_from != null) created.$gte = new Date(args.date_from * 1000);
    // Inclusive of the whole last second: stored times have microseconds.
    if (args.date_to != null) created.$lt = new Date((args.date_to + 1) * 1000);
    if (Object.keys(created).length) where.created_at = created;
    if (args.status?.length) where.status = { $in: args.status };
    return this.em.find(SmsActivity, where, {
      populate: ['sms'],
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }
}

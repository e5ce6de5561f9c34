import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { personalize } from '../sending/render.js';
import { E164 } from '../sms-numbers/phone.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import type { TxEventHandler } from '../../core/events.js';
import { segmentCount } from './segments.js';
import type { SendSmsArgs } from './send.inputs.js';
import { smsSendJob } from './send.job.js';
import { Sms, SmsActivity, SmsMessage, SmsRecipient } from './sms.entity.js';
import { SmsRepository } from './sms.repository.js';
import { OPTED_OUT, QUEUED_SMS, SKIPPED_SMS } from './sms.statuses.js';
import { type Actor } from '../../core/actor.js';
import { msg, FieldErrorBag } from '../../core/errors.js';

const notE164 = (path: string) => `The ${path} must be a phone number in E.164 format (e.g. +15551234567).`;

/** Every rule of a send, all reported at once; answers the sending number. */
async function checkSend(em: EntityManager, auth: Actor, args: SendSmsArgs): Promise<SmsNumber> {
  const bag = new FieldErrorBag();
  const number = await em.findOne(SmsNumber, { account: auth.accountId, telephone_number: args.from });
  if (!number) bag.add('from', msg.in('from'));
  else if (number.paused) bag.add('from', 'The from number is paused: unpause it to send from it.');
  if (args.to.length === 0) bag.add('to', msg.required('to'));
  const seen = new Set<string>();
  args.to.forEach((n, i) => {
    if (!E164.test(n)) bag.add(`to.${i}`, notE164(`to.${i}`));
    else if (seen.has(n)) bag.add(`to.${i}`, `The to.${i} field has a duplicate value.`);
    seen.add(n);
  });
  if (!args.text.trim()) bag.add('text', msg.required('text'));
  (args.personalization ?? []).forEach((p, i) => {
    if (!E164.test(p.phone_number)) bag.add(`personalization.${i}.phone_number`, notE164(`personalization.${i}.phone_number`));
  });
  bag.throwIfAny();
  return number!;
}

/**
 * Accepts one send (POST /v1/sms): the message, one text per recipient (personalized, its
 * segments counted), their `queued` activity and the send job, in one transaction. A recipient
 * who opted out gets a `skipped` text: kept for the record, never sent, no activity or event.
 */
export async function acceptSms(services: AppServices, em: EntityManager, auth: Actor, args: SendSmsArgs): Promise<{ sms_message_id: string }> {
  const number = await checkSend(em, auth, args);
  const data = new Map<string, Record<string, unknown>>();
  for (const p of args.personalization ?? []) data.set(p.phone_number, p.data);
  const now = new Date();

  return em.transactional(async (tx) => {
    const account = tx.getReference(Account, auth.accountId);
    const message = tx.create(SmsMessage, {
      account,
      sms_number: number,
      from: number.telephone_number,
      to: args.to,
      text: args.text,
      personalization: (args.personalization ?? []).map((p) => ({ phone_number: p.phone_number, data: p.data })),
      created_at: now,
      updated_at: now,
    });
    const recipients = await new SmsRepository(tx).upsertRecipients(auth.accountId, args.to, now);
    let queued = 0;
    for (const to of args.to) {
      const recipient = recipients.get(to)!;
      const text = personalize(args.text, data.get(to) ?? {}, 'text');
      const status = recipient.status === OPTED_OUT ? SKIPPED_SMS : QUEUED_SMS;
      const sms = tx.create(Sms, {
        account,
        message,
        sms_number: number,
        recipient: tx.getReference(SmsRecipient, recipient.id),
        from: number.telephone_number,
        to,
        text,
        status,
        segment_count: segmentCount(text),
        created_at: now,
        updated_at: now,
      });
      if (status === QUEUED_SMS) {
        queued++;
        tx.create(SmsActivity, { account, sms_number: number, sms, status, created_at: now, updated_at: now });
      }
    }
    await tx.flush();
    if (queued) await enqueue(tx, services.boss, smsSendJob, { sms_message_id: message.id });
    return { sms_message_id: message.id };
  });
}

/**
 * Unpausing a number sends what waited: the send job leaves a paused number's texts queued, so
 * each message still holding queued texts of the number gets its job again. Subscribed to
 * smsNumberResumed by the module's manifest.
 */
export const sendOnNumberResumed: TxEventHandler<{ sms_number_id: string }, Pick<AppServices, 'boss'>> = async (tx, { sms_number_id }, services) => {
  const waiting = await new SmsRepository(tx).messagesQueuedOn(sms_number_id);
  for (const message_id of waiting) await enqueue(tx, services.boss, smsSendJob, { sms_message_id: message_id });
};

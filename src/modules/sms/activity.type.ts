import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { SmsActivity } from './sms.entity.js';

/** One status a text reached, with the text it is about. */
@ObjectType('SmsActivity')
export class SmsActivityType {
  @Field() from!: string;
  @Field() to!: string;
  @Field(() => IsoTimestamp, { description: 'When the text reached this status.' }) created_at!: Date;
  @Field({ description: 'The text as the recipient got it.' }) content!: string;
  @Field({ description: 'queued, sent, delivered or failed' }) status!: string;
  @Field(() => ID) sms_message_id!: string;
}

/** `a.sms` must be loaded. */
export function toSmsActivity(a: SmsActivity): SmsActivityType {
  return { from: a.sms.from, to: a.sms.to, created_at: a.created_at, content: a.sms.text, status: a.status, sms_message_id: a.sms.message.id };
}

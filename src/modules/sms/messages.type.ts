import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { PageMeta } from '../../graphql/pagination.js';
import type { Sms, SmsMessage } from './sms.entity.js';
import { SmsType, toSms } from './sms.type.js';

/** One POST /v1/sms: the text before personalization and its recipients. */
@ObjectType('SmsMessage')
export class SmsMessageType {
  @Field(() => ID) id!: string;
  @Field() from!: string;
  @Field(() => [String]) to!: string[];
  @Field() text!: string;
  @Field({ description: 'Texts of it wait because its number was paused after it was accepted.' }) paused!: boolean;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType('SmsMessageDetail')
export class SmsMessageDetail extends SmsMessageType {
  @Field(() => [SmsType], { description: 'One per recipient, in the order of `to`.' }) sms!: SmsType[];
}

export function toSmsMessage(m: SmsMessage, paused: boolean): SmsMessageType {
  return { id: m.id, from: m.from, to: m.to, text: m.text, paused, created_at: m.created_at };
}

export function toSmsMessageDetail(m: SmsMessage, paused: boolean, sms: Sms[]): SmsMessageDetail {
  const order = (s: Sms) => m.to.indexOf(s.to);
  return { ...toSmsMessage(m, paused), sms: [...sms].sort((a, b) => order(a) - order(b)).map(toSms) };
}

@ObjectType({ description: 'One page of SMS messages with the full pager (GET /v1/sms-messages).' })
export class SmsMessagePage {
  @Field(() => [SmsMessageType]) data!: SmsMessageType[];
  @Field(() => PageMeta) meta!: PageMeta;
}

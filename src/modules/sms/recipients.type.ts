import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { Sms, SmsRecipient } from './sms.entity.js';
import { SmsType, toSms } from './sms.type.js';

/** A number the account has texted (or that texted it). */
@ObjectType('SmsRecipient')
export class SmsRecipientType {
  @Field(() => ID) id!: string;
  @Field({ description: 'E.164' }) number!: string;
  @Field({ description: 'active or opt_out' }) status!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType('SmsRecipientDetail')
export class SmsRecipientDetail extends SmsRecipientType {
  @Field(() => [SmsType], { description: 'Its most recent texts, newest first.' }) sms!: SmsType[];
}

export function toSmsRecipient(r: SmsRecipient): SmsRecipientType {
  return { id: r.id, number: r.number, status: r.status, created_at: r.created_at };
}

export function toSmsRecipientDetail(r: SmsRecipient, sms: Sms[]): SmsRecipientDetail {
  return { ...toSmsRecipient(r), sms: sms.map(toSms) };
}

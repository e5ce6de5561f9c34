import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { SmsNumber } from './sms-number.entity.js';

@ObjectType()
export class SmsNumberType {
  @Field(() => ID) id!: string;
  @Field() telephone_number!: string;
  @Field() paused!: boolean;
  @Field(() => IsoTimestamp) created_at!: Date;
}

export function toSmsNumber(n: SmsNumber): SmsNumberType {
  return { id: n.id, telephone_number: n.telephone_number, paused: n.paused, created_at: n.created_at };
}

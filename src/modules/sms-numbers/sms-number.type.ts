import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { PageMeta } from '../../graphql/pagination.js';
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

@ObjectType({ description: 'One page of SMS numbers with the full pager (GET /v1/sms-numbers).' })
export class SmsNumberPage {
  @Field(() => [SmsNumberType]) data!: SmsNumberType[];
  @Field(() => PageMeta) meta!: PageMeta;
}

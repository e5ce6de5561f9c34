import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import type { Sms } from './sms.entity.js';

/** One text to one recipient, as messages and recipients show it. */
@ObjectType('Sms')
export class SmsType {
  @Field(() => ID) id!: string;
  @Field() from!: string;
  @Field() to!: string;
  @Field({ description: 'The text as this recipient got it (personalized).' }) text!: string;
  @Field({ description: 'queued, sent, delivered, failed, or skipped (the recipient opted out)' }) status!: string;
  @Field(() => Int) segment_count!: number;
  @Field(() => String, { nullable: true, description: 'The provider\'s error code when failed.' }) error_type!: string | null;
  @Field(() => String, { nullable: true }) error_description!: string | null;
  @Field(() => IsoTimestamp) created_at!: Date;
}

export function toSms(s: Sms): SmsType {
  return {
    id: s.id,
    from: s.from,
    to: s.to,
    text: s.text,
    status: s.status,
    segment_count: s.segment_count,
    error_type: s.error_type,
    error_description: s.error_description,
    created_at: s.created_at,
  };
}

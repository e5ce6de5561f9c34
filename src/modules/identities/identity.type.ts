import { Field, ID, Int, ObjectType } from 'type-graphql';
import { isoTimestamp } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { SenderIdentity } from './identity.entity.js';

@ObjectType('SenderIdentity', { description: 'An address the account sends from, usable once its owner confirms it.' })
export class SenderIdentityType {
  @Field(() => ID) id!: string;
  @Field() email!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) reply_to_email!: string | null;
  @Field(() => String, { nullable: true }) reply_to_name!: string | null;
  @Field() is_verified!: boolean;
  @Field(() => Int, { description: 'How many times the confirmation mail was sent again.' }) resends!: number;
  @Field({ description: 'Whether the confirmation mail carries personal_note.' }) add_note!: boolean;
  @Field(() => String, { nullable: true }) personal_note!: string | null;
  @Field(() => DomainRef) domain!: DomainRef;
}

/** The identity must have its domain loaded. */
export function toSenderIdentity(i: SenderIdentity): SenderIdentityType {
  return {
    id: i.id,
    email: i.email,
    name: i.name,
    reply_to_email: i.reply_to_email,
    reply_to_name: i.reply_to_name,
    is_verified: i.is_verified,
    resends: i.resends,
    add_note: i.add_note,
    personal_note: i.personal_note,
    domain: toDomainRef(i.domain),
  };
}

/** The record as plain JSON (timestamps already formatted), for event payloads stored outside GraphQL. */
export function senderIdentityJson(i: SenderIdentity): Record<string, unknown> {
  const record = toSenderIdentity(i);
  return {
    ...record,
    domain: {
      ...record.domain,
      created_at: isoTimestamp(record.domain.created_at),
      updated_at: isoTimestamp(record.domain.updated_at),
    },
  };
}

import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import { RecipientType, toRecipient } from '../recipients/recipient.type.js';
import type { Suppression } from './suppression.entity.js';

@ObjectType({ description: 'A blocklist entry: an exact address or a regular expression, for a domain or the whole account.' })
export class BlocklistEntry {
  @Field(() => ID) id!: string;
  @Field({ description: 'email (an exact address) or pattern (a regular expression)' }) type!: string;
  @Field() pattern!: string;
  @Field(() => DomainRef, { nullable: true, description: 'Null for an entry of the whole account.' })
  domain!: DomainRef | null;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

@ObjectType({ description: 'A hard-bounce, spam-complaint or unsubscribe entry.' })
export class SuppressionEntry {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => RecipientType) recipient!: RecipientType;
}

@ObjectType({ description: 'An on-hold entry: no mail goes to the recipient until on_hold_until.' })
export class OnHoldEntry extends SuppressionEntry {
  @Field(() => IsoTimestamp) on_hold_until!: Date;
}

export function toBlocklistEntry(s: Suppression): BlocklistEntry {
  return {
    id: s.id,
    type: s.type ?? 'pattern',
    pattern: s.pattern ?? '',
    domain: s.domain ? toDomainRef(s.domain) : null,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function toSuppressionEntry(s: Suppression): SuppressionEntry {
  return { id: s.id, reason: s.reason, created_at: s.created_at, recipient: toRecipient(s.recipient!) };
}

export function toOnHoldEntry(s: Suppression): OnHoldEntry {
  return { ...toSuppressionEntry(s), on_hold_until: s.on_hold_until! };
}

import { Field, ID, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { JSONObject, PlainTimestamp, plainTimestamp } from '../../graphql/scalars.js';
import { DomainType } from '../domains/domain.type.js';
import type { Recipient } from './recipient.entity.js';

@ObjectType()
export class RecipientType {
  @Field(() => ID) id!: string;
  @Field() email!: string;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
  @Field({ description: 'Empty when not deleted.' }) deleted_at!: string;
}

@ObjectType()
export class RecipientPage {
  @Field(() => [RecipientType]) data!: RecipientType[];
  @Field(() => PageMeta) meta!: PageMeta;
}

@ObjectType()
export class RecipientDetail extends RecipientType {
  @Field(() => [JSONObject], { description: 'Emails sent to this recipient, newest first.' })
  emails!: Record<string, unknown>[];
  @Field(() => DomainType) domain!: DomainType;
}

export function toRecipient(r: Recipient): RecipientType {
  return {
    id: r.id,
    email: r.email,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at ? plainTimestamp(r.deleted_at) : '',
  };
}

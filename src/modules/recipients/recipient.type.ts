import { Field, ID, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { PlainTimestamp, plainTimestamp } from '../../graphql/scalars.js';
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

@ObjectType({ description: 'One email sent to a recipient, in short.' })
export class RecipientEmail {
  @Field(() => ID) id!: string;
  @Field(() => ID) message_id!: string;
  @Field({ description: "The message's sender address." }) from!: string;
  @Field() subject!: string;
  @Field() status!: string;
  @Field(() => [String], { nullable: true, description: 'Null when the email has no tags.' }) tags!: string[] | null;
  @Field(() => PlainTimestamp) created_at!: Date;
}

@ObjectType()
export class RecipientDetail extends RecipientType {
  @Field(() => [RecipientEmail], { description: 'The latest 100 emails sent to this recipient, newest first.' })
  emails!: RecipientEmail[];
  @Field(() => DomainType) domain!: DomainType;
}

/** The recipient as the API shows it, from the entity or from the same columns read with a join. */
export function toRecipient(r: Pick<Recipient, 'id' | 'email' | 'created_at' | 'updated_at' | 'deleted_at'>): RecipientType {
  return {
    id: r.id,
    email: r.email,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at ? plainTimestamp(r.deleted_at) : '',
  };
}

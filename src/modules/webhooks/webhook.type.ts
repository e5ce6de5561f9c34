import { Field, ID, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { decrypt } from '../../lib/secrets.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import type { Webhook } from './webhook.entity.js';

@ObjectType('Webhook', { description: 'An email webhook: events of one domain pushed to one URL.' })
export class WebhookType {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() name!: string;
  @Field() enabled!: boolean;
  @Field() editable!: boolean;
  @Field({ description: 'The signing secret of the Signature and webhook-signature headers.' }) secret!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field(() => DomainRef) domain!: DomainRef;
}

@ObjectType()
export class WebhookPage {
  @Field(() => [WebhookType]) data!: WebhookType[];
  @Field(() => PageMeta) meta!: PageMeta;
}

/** The fields every registered webhook's record shows (email and SMS), the secret unsealed. */
export function registeredFields(w: Webhook, appSecret: string) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    name: w.name,
    enabled: w.enabled,
    secret: decrypt(appSecret, w.secret_enc),
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

/** The record of COMPAT.md; the domain must be loaded. */
export function toWebhook(w: Webhook, appSecret: string): WebhookType {
  return { ...registeredFields(w, appSecret), editable: w.editable, domain: toDomainRef(w.domain!) };
}

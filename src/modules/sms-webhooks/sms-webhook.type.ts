import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { SmsNumberType, toSmsNumber } from '../sms-numbers/sms-number.type.js';
import type { Webhook } from '../webhooks/webhook.entity.js';
import { registeredFields } from '../webhooks/webhook.type.js';

/** SPEC.md leaves the record open: it mirrors the email webhook's, with the SMS number for the domain. */
@ObjectType('SmsWebhook', { description: 'An SMS webhook: sms.* events of one SMS number pushed to one URL.' })
export class SmsWebhookType {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() name!: string;
  @Field() enabled!: boolean;
  @Field({ description: 'The signing secret of the Signature and webhook-signature headers.' }) secret!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field(() => SmsNumberType) sms_number!: SmsNumberType;
}

/** The SMS number must be loaded. */
export function toSmsWebhook(w: Webhook, appSecret: string): SmsWebhookType {
  return { ...registeredFields(w, appSecret), sms_number: toSmsNumber(w.sms_number!) };
}

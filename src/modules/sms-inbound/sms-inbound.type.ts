import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { decrypt } from '../../lib/secrets.js';
import type { SmsInbound } from '../sms/sms.entity.js';
import { SmsNumberType, toSmsNumber } from '../sms-numbers/sms-number.type.js';
import type { Webhook } from '../webhooks/webhook.entity.js';

@ObjectType('SmsInboundFilter')
export class SmsInboundFilterType {
  @Field() comparer!: string;
  @Field() value!: string;
}

@ObjectType('SmsInbound', { description: 'An SMS inbound route: texts to its number that pass its filter are POSTed to forward_url.' })
export class SmsInboundType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => SmsInboundFilterType, { nullable: true, description: 'Null: every text is forwarded.' })
  filter!: SmsInboundFilterType | null;
  @Field() forward_url!: string;
  @Field({ description: 'False when turned off, or when the service paused it after its forward URL kept failing.' })
  enabled!: boolean;
  @Field({ description: 'Signs every forward (the Signature header), as webhook secrets do.' })
  secret!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => SmsNumberType, { nullable: true, description: 'Set on the single-route query (sms_inbound) only.' })
  sms_number!: SmsNumberType | null;
}

@ObjectType('SimulatedSmsInbound', { description: 'A text received in the SMS sandbox: stored as a received one, forwarded by the routes that take it.' })
export class SimulatedSmsInboundType {
  @Field(() => ID, { description: 'The received text.' }) id!: string;
  @Field(() => Int, { description: 'The routes of the number it is forwarded to (enabled, and their filter takes it).' })
  forwarded_to!: number;
}

/**
 * The record, from the route and the webhook row that carries its deliveries. `withNumber`: the
 * single-route answer, which adds the number (it must be loaded).
 */
export function toSmsInbound(r: SmsInbound, w: Webhook, appSecret: string, withNumber = false): SmsInboundType {
  return {
    id: r.id,
    name: r.name,
    filter: r.filter_comparer && r.filter_value != null ? { comparer: r.filter_comparer, value: r.filter_value } : null,
    forward_url: r.forward_url,
    // The engine pauses a failing target by turning its webhook off: the route shows that.
    enabled: r.enabled && w.enabled && w.paused_reason === null,
    secret: decrypt(appSecret, w.secret_enc),
    created_at: r.created_at,
    sms_number: withNumber ? toSmsNumber(r.sms_number) : null,
  };
}

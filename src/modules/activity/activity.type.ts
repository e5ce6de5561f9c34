import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PlainTimestamp } from '../../graphql/scalars.js';
import { RecipientType } from '../recipients/recipient.type.js';
import { DeliveryDiagnosisType } from './diagnosis.type.js';

@ObjectType({ description: 'The email an activity belongs to. text and html are the message\'s, not personalized.' })
export class ActivityEmailType {
  @Field(() => ID) id!: string;
  @Field() from!: string;
  @Field() subject!: string;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field() status!: string;
  @Field(() => [String], { nullable: true, description: 'Null when the message had no tags.' }) tags!: string[] | null;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
  @Field(() => RecipientType) recipient!: RecipientType;
}

@ObjectType({ description: 'One step in an email\'s life (SPEC.md "Activity").' })
export class ActivityEntry {
  @Field(() => ID) id!: string;
  @Field(() => PlainTimestamp) created_at!: Date;
  @Field(() => PlainTimestamp) updated_at!: Date;
  @Field() type!: string;
  @Field(() => String, { nullable: true, description: 'Set only when type is suppressed.' }) suppression_reason!: string | null;
  @Field(() => ActivityEmailType) email!: ActivityEmailType;
  @Field(() => DeliveryDiagnosisType, { nullable: true, description: "Set for deferred, soft_bounced and hard_bounced: the receiver's answer read for people." })
  diagnosis!: DeliveryDiagnosisType | null;
  @Field(() => String, {
    nullable: true,
    description: 'Set for sent and delivered with MX delivery: the TLS policy the session went under: dane, mta-sts, or none (opportunistic STARTTLS).',
  })
  tls_policy!: string | null;
}

/** The simple pager: no `last_page` and no `total`, so a page never needs counting the whole range. */
@ObjectType()
export class ActivityPageMeta {
  @Field(() => Int) current_page!: number;
  @Field(() => Int, { nullable: true }) from!: number | null;
  @Field(() => Int) per_page!: number;
  @Field(() => Int, { nullable: true }) to!: number | null;
}

@ObjectType()
export class ActivityPage {
  @Field(() => [ActivityEntry]) data!: ActivityEntry[];
  @Field(() => ActivityPageMeta) meta!: ActivityPageMeta;
}

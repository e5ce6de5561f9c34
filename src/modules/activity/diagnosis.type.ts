import { Field, ObjectType } from 'type-graphql';
import { diagnose, type DeliveryDiagnosis } from '../../lib/delivery-reason.js';

/** The activity types and email statuses whose receiver's answer is read for people. */
export const DIAGNOSED = new Set(['deferred', 'soft_bounced', 'hard_bounced']);

@ObjectType('DeliveryDiagnosis', { description: "A receiver's refusal or deferral read for people: what happened and what to do." })
export class DeliveryDiagnosisType implements DeliveryDiagnosis {
  @Field(() => String, { description: 'connection, rate_limited, mailbox_full, unknown_recipient, policy, content or other.' })
  reason!: DeliveryDiagnosis['reason'];

  @Field(() => String, {
    nullable: true,
    description: "The large providers' sender requirement the answer names: authentication, dmarc_alignment, one_click_unsubscribe, spam_rate, reverse_dns, tls or blocklisted.",
  })
  requirement!: DeliveryDiagnosis['requirement'];

  @Field(() => String, { nullable: true, description: 'gmail, microsoft, yahoo or apple, when the answer says so.' })
  provider!: string | null;

  @Field(() => String, { nullable: true, description: "The receiver's answer, as it came." })
  smtp_response!: string | null;

  @Field({ description: 'What happened and what to do, in plain words.' })
  explanation!: string;
}

/** The diagnosis of an activity or email of `status` whose receiver answered `response`; null for other statuses. */
export function diagnosisOf(status: string, response: string | null | undefined): DeliveryDiagnosisType | null {
  if (!DIAGNOSED.has(status)) return null;
  return { ...diagnose(status, response ?? null), smtp_response: response ?? null };
}

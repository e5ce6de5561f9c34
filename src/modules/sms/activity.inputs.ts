import { ArgsType, Field, ID, Int } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachOneOf } from '../../graphql/validation.js';
import { REPORTED_SMS } from './sms.statuses.js';

/** The SDK's SmsActivityStatusType; `processed` is accepted, though no text is ever in it here. */
export const SMS_ACTIVITY_STATUSES = [...REPORTED_SMS, 'processed'] as const;

@ArgsType()
export class SmsActivityArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only texts sent from this number.' })
  sms_number_id?: string | null;

  @Field(() => Int, { nullable: true, description: 'Unix timestamp (UTC), inclusive.' })
  date_from?: number | null;

  @Field(() => Int, { nullable: true, description: 'Unix timestamp (UTC), inclusive; not before date_from.' })
  date_to?: number | null;

  @Field(() => [String], { nullable: true, description: 'queued, sent, delivered, failed, processed' })
  @EachOneOf(SMS_ACTIVITY_STATUSES)
  status?: string[] | null;
}

import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { OneOf } from '../../graphql/validation.js';
import { SMS_RECIPIENT_STATUSES, type SmsRecipientStatus } from './sms.statuses.js';

@ArgsType()
export class SmsRecipientListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'active or opt_out' })
  @OneOf(SMS_RECIPIENT_STATUSES)
  status?: SmsRecipientStatus | null;

  @Field(() => ID, { nullable: true, description: 'Only numbers this SMS number has sent to.' })
  sms_number_id?: string | null;
}

@ArgsType()
export class SmsRecipientIdArgs {
  @Field(() => ID) sms_recipient_id!: string;
}

@ArgsType()
export class UpdateSmsRecipientArgs {
  @Field(() => ID) sms_recipient_id!: string;
  @Field(() => String, { description: 'active, or opt_out: sends to the number are then skipped' })
  @OneOf(SMS_RECIPIENT_STATUSES)
  status!: SmsRecipientStatus;
}

import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachOneOf, MaxLen } from '../../graphql/validation.js';
import { EMAIL_STATUSES, type EmailStatus } from '../messages/message.status.js';
import { INTERACTIONS, type Interaction } from './email.mapper.js';

@ArgsType()
export class EmailListArgs extends PageArgs {
  @Field(() => [String], { nullable: true, description: 'Any of these statuses (`status` or `status[]`).' })
  @EachOneOf(EMAIL_STATUSES)
  status?: EmailStatus[] | null;

  @Field(() => [String], { nullable: true, description: 'opened, clicked, unsubscribed or no_interaction; several match any.' })
  @EachOneOf(INTERACTIONS)
  interaction?: Interaction[] | null;

  @Field(() => String, { nullable: true, description: 'The recipient address, in any case.' })
  @MaxLen(320)
  recipient?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the subject, in any case.' })
  @MaxLen(998)
  subject?: string | null;

  @Field(() => String, { nullable: true, description: 'Same as `recipient` (the name the mailersend SDK sends).' })
  @MaxLen(320)
  recipient_email?: string | null;

  @Field(() => String, { nullable: true }) @MaxLen(191) tag?: string | null;
  @Field(() => ID, { nullable: true, description: 'A template id.' }) template?: string | null;
  @Field(() => ID, { nullable: true, description: 'Same as `template`.' }) template_id?: string | null;

  @Field(() => String, { nullable: true, description: 'UTC: a Unix timestamp or YYYY-MM-DD HH:MM:SS; emails created at or after it.' })
  date_from?: string | null;

  @Field(() => String, { nullable: true, description: 'UTC, as date_from; emails created at or before it.' })
  date_to?: string | null;
  @Field(() => ID, { nullable: true }) message_id?: string | null;
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

@ArgsType()
export class EmailIdArgs {
  @Field(() => ID) email_id!: string;
}

import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { OneOf } from '../../graphql/validation.js';

export const SCHEDULE_STATUSES = ['scheduled', 'sent', 'error'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

@ArgsType()
export class MessageListArgs extends PageArgs {}

@ArgsType()
export class MessageIdArgs {
  @Field(() => ID) message_id!: string;
}

@ArgsType()
export class ScheduleListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
  @Field(() => String, { nullable: true, description: 'scheduled, sent or error' })
  @OneOf(SCHEDULE_STATUSES)
  status?: ScheduleStatus | null;
}

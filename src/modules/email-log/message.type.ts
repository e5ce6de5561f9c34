import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { PageMeta } from '../../graphql/pagination.js';
import { DomainRef } from '../domains/domain-ref.type.js';
import { DomainType } from '../domains/domain.type.js';
import { LoggedEmail } from './email.type.js';

/** One accepted send (its id is the x-message-id). */
@ObjectType()
export class MessageListItem {
  @Field(() => ID) id!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

@ObjectType()
export class MessageDetail extends MessageListItem {
  @Field(() => [LoggedEmail], { description: 'One per `to` recipient, in the order of the request.' }) emails!: LoggedEmail[];
  @Field(() => DomainType) domain!: DomainType;
}

/** A send with a `send_at`, as the schedule list shows it. */
@ObjectType()
export class MessageSchedule {
  @Field(() => ID) message_id!: string;
  @Field() subject!: string;
  @Field(() => IsoTimestamp) send_at!: Date;
  @Field({ description: 'scheduled, sent or error' }) status!: string;
  @Field(() => String, { nullable: true, description: 'Why a schedule is in error.' }) status_message!: string | null;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class ScheduledMessageRef {
  @Field(() => ID) id!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class MessageScheduleDetail extends MessageSchedule {
  @Field(() => DomainRef) domain!: DomainRef;
  @Field(() => ScheduledMessageRef) message!: ScheduledMessageRef;
}

@ObjectType({ description: 'One page of message schedules with the full pager (GET /v1/message-schedules).' })
export class MessageSchedulePage {
  @Field(() => [MessageSchedule]) data!: MessageSchedule[];
  @Field(() => PageMeta) meta!: PageMeta;
}

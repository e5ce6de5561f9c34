import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { MessageIdArgs, MessageListArgs, ScheduleListArgs } from './message.inputs.js';
import { MessageService } from './message.service.js';
import { MessageDetail, MessageListItem, MessageSchedule, MessageScheduleDetail, MessageSchedulePage } from './message.type.js';
import { ScheduleService } from './schedule.service.js';

/**
 * Reading sends and schedules is reading the email log (`activity_read`); cancelling a
 * schedule changes what gets sent, so it takes the sending scope (`email_full`).
 */
@Resolver()
export class MessageResolver {
  @Authorized('activity_read')
  @Query(() => [MessageListItem], { description: 'Accepted sends, newest first (GET /v1/messages).' })
  messages(@Context() ctx: Ctx, @Args() args: MessageListArgs): Promise<MessageListItem[]> {
    return new MessageService(ctx.em).list(caller(ctx), args);
  }

  @Authorized('activity_read')
  @Query(() => MessageDetail)
  message(@Context() ctx: Ctx, @Args() { message_id }: MessageIdArgs): Promise<MessageDetail> {
    return new MessageService(ctx.em).get(caller(ctx), message_id);
  }

  @Authorized('activity_read')
  @Query(() => [MessageSchedule], { description: 'Sends with a send_at, newest first; cancelled ones are left out.' })
  message_schedules(@Context() ctx: Ctx, @Args() args: ScheduleListArgs): Promise<MessageSchedule[]> {
    return new ScheduleService(ctx.em).list(caller(ctx), args);
  }

  @Authorized('activity_read')
  @Query(() => MessageSchedulePage, { description: 'Sends with a send_at, newest first, with the full pager (GET /v1/message-schedules).' })
  async message_schedules_page(@Context() ctx: Ctx, @Args() args: ScheduleListArgs): Promise<MessageSchedulePage> {
    const { rows, meta } = await new ScheduleService(ctx.em).page(caller(ctx), args);
    return { data: rows, meta };
  }

  @Authorized('activity_read')
  @Query(() => MessageScheduleDetail)
  message_schedule(@Context() ctx: Ctx, @Args() { message_id }: MessageIdArgs): Promise<MessageScheduleDetail> {
    return new ScheduleService(ctx.em).get(caller(ctx), message_id);
  }

  @Authorized('email_full')
  @Mutation(() => Boolean, { description: 'Cancels a scheduled send that has not gone out yet.' })
  delete_message_schedule(@Context() ctx: Ctx, @Args() { message_id }: MessageIdArgs): Promise<boolean> {
    return new ScheduleService(ctx.em).cancel(caller(ctx), message_id);
  }
}

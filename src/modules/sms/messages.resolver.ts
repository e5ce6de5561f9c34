import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SmsMessageIdArgs, SmsMessageListArgs } from './messages.inputs.js';
import { SmsMessageService } from './messages.service.js';
import { SmsMessageDetail, SmsMessagePage, SmsMessageType, toSmsMessage, toSmsMessageDetail } from './messages.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new SmsMessageService(ctx.em);

@Resolver()
export class SmsMessageResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsMessageType], { description: 'The account\'s SMS messages (sends), newest first.' })
  async sms_messages(@Context() ctx: Ctx, @Args() args: SmsMessageListArgs): Promise<SmsMessageType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map((v) => toSmsMessage(v.message, v.paused));
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsMessagePage, { description: 'The account\'s SMS messages, newest first, with the full pager (GET /v1/sms-messages).' })
  async sms_messages_page(@Context() ctx: Ctx, @Args() args: SmsMessageListArgs): Promise<SmsMessagePage> {
    const { rows, meta } = await svc(ctx).page(caller(ctx), args);
    return { data: rows.map((v) => toSmsMessage(v.message, v.paused)), meta };
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsMessageDetail, { description: 'One SMS message with each of its texts.' })
  async sms_message(@Context() ctx: Ctx, @Args() { sms_message_id }: SmsMessageIdArgs): Promise<SmsMessageDetail> {
    const v = await svc(ctx).get(caller(ctx), sms_message_id);
    return toSmsMessageDetail(v.message, v.paused, v.sms);
  }
}

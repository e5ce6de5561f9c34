import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SmsActivityArgs } from './activity.inputs.js';
import { SmsActivityService } from './activity.service.js';
import { SmsActivityType, toSmsActivity } from './activity.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

@Resolver()
export class SmsActivityResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsActivityType], { description: 'Status changes of the account\'s texts, newest first.' })
  async sms_activity(@Context() ctx: Ctx, @Args() args: SmsActivityArgs): Promise<SmsActivityType[]> {
    return (await new SmsActivityService(ctx.em).list(caller(ctx), args)).map(toSmsActivity);
  }
}

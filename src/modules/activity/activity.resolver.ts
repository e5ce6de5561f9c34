import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { ActivityIdArgs, ActivityListArgs } from './activity.inputs.js';
import { ActivityService } from './activity.service.js';
import { ActivityEntry, ActivityPage } from './activity.type.js';

const svc = (ctx: Ctx) => new ActivityService(ctx.em);

@Resolver()
export class ActivityResolver {
  @Authorized('activity_read')
  @Query(() => ActivityPage, { description: 'A domain\'s activity in a time range, newest first (GET /v1/activity/{domain_id}).' })
  activities(@Context() ctx: Ctx, @Args() args: ActivityListArgs): Promise<ActivityPage> {
    return svc(ctx).list(caller(ctx), args);
  }

  @Authorized('activity_read')
  @Query(() => ActivityEntry)
  activity(@Context() ctx: Ctx, @Args() { activity_id }: ActivityIdArgs): Promise<ActivityEntry> {
    return svc(ctx).get(caller(ctx), activity_id);
  }
}

import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateMonitorArgs, MonitorIdArgs, MonitorListArgs, UpdateMonitorArgs } from './blocklist.inputs.js';
import { BlocklistService, type MonitorDetail } from './blocklist.service.js';
import { BlocklistMonitorType, toMonitor } from './blocklist.type.js';

const svc = (ctx: Ctx) => new BlocklistService(ctx.em, ctx.services);
const single = (ctx: Ctx, d: MonitorDetail) =>
  toMonitor(d.monitor, ctx.services.config.APP_SECRET, { owner: d.owner, hits: d.hits, children: d.children });

@Resolver()
export class BlocklistResolver {
  @Authorized('blocklist_monitoring_read')
  @Query(() => [BlocklistMonitorType], { description: 'Monitors of the account (ranges as one parent each).' })
  async blocklist_monitors(@Context() ctx: Ctx, @Args() args: MonitorListArgs): Promise<BlocklistMonitorType[]> {
    const secret = ctx.services.config.APP_SECRET;
    return (await svc(ctx).list(caller(ctx), args)).map((m) => toMonitor(m, secret));
  }

  @Authorized('blocklist_monitoring_read')
  @Query(() => BlocklistMonitorType, { description: 'One monitor, with its hits, or its children for a range.' })
  async blocklist_monitor(@Context() ctx: Ctx, @Args() { monitor_id }: MonitorIdArgs): Promise<BlocklistMonitorType> {
    return single(ctx, await svc(ctx).get(caller(ctx), monitor_id));
  }

  @Authorized('blocklist_monitoring_full')
  @Mutation(() => BlocklistMonitorType, { description: 'A CIDR block creates one parent and one child per IP.' })
  async create_blocklist_monitor(@Context() ctx: Ctx, @Args() args: CreateMonitorArgs): Promise<BlocklistMonitorType> {
    return single(ctx, await svc(ctx).create(caller(ctx), args));
  }

  @Authorized('blocklist_monitoring_full')
  @Mutation(() => BlocklistMonitorType)
  async update_blocklist_monitor(@Context() ctx: Ctx, @Args() args: UpdateMonitorArgs): Promise<BlocklistMonitorType> {
    return single(ctx, await svc(ctx).update(caller(ctx), args));
  }

  @Authorized('blocklist_monitoring_full')
  @Mutation(() => Boolean, { description: 'Deleting a range removes its children.' })
  async delete_blocklist_monitor(@Context() ctx: Ctx, @Args() { monitor_id }: MonitorIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), monitor_id);
  }
}

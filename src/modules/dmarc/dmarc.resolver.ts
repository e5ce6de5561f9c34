import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateDmarcMonitorArgs, DmarcListArgs, DmarcMonitorIdArgs, UpdateDmarcMonitorArgs } from './dmarc.inputs.js';
import { DmarcService } from './dmarc.service.js';
import { DmarcMonitorType, toDmarcMonitor } from './dmarc.type.js';

const svc = (ctx: Ctx) => new DmarcService(ctx.em, ctx.services);

@Resolver()
export class DmarcResolver {
  @Authorized('dmarc_monitoring_read')
  @Query(() => [DmarcMonitorType], { description: 'DMARC monitors of the account.' })
  async dmarc_monitors(@Context() ctx: Ctx, @Args() args: DmarcListArgs): Promise<DmarcMonitorType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(toDmarcMonitor);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => DmarcMonitorType, { description: 'Starts monitoring a verified domain; its DNS records are checked at once.' })
  async create_dmarc_monitor(@Context() ctx: Ctx, @Args() args: CreateDmarcMonitorArgs): Promise<DmarcMonitorType> {
    return toDmarcMonitor(await svc(ctx).create(caller(ctx), args));
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => DmarcMonitorType)
  async update_dmarc_monitor(@Context() ctx: Ctx, @Args() args: UpdateDmarcMonitorArgs): Promise<DmarcMonitorType> {
    return toDmarcMonitor(await svc(ctx).update(caller(ctx), args));
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => Boolean)
  async delete_dmarc_monitor(@Context() ctx: Ctx, @Args() { monitor_id }: DmarcMonitorIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), monitor_id);
  }
}

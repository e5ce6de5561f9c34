import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import {
  CreateDmarcMonitorArgs,
  DmarcFavoriteArgs,
  DmarcIpReportArgs,
  DmarcListArgs,
  DmarcMonitorIdArgs,
  DmarcReportArgs,
  DmarcReportSourcesArgs,
  UpdateDmarcMonitorArgs,
  UploadDmarcReportArgs,
} from './dmarc.inputs.js';
import { DmarcService } from './dmarc.service.js';
import {
  DmarcMonitorType,
  DmarcReportIpType,
  DmarcReportReceiptType,
  DmarcReportRecordType,
  DmarcReportSourceType,
  toDmarcMonitor,
} from './dmarc.type.js';
import { DmarcReportService } from './report.service.js';

const svc = (ctx: Ctx) => new DmarcService(ctx.em, ctx.services);
const reports = (ctx: Ctx) => new DmarcReportService(ctx.em, ctx.services);

@Resolver()
export class DmarcResolver {
  @Authorized('dmarc_monitoring_read')
  @Query(() => [DmarcMonitorType], { description: 'DMARC monitors of the account.' })
  async dmarc_monitors(@Context() ctx: Ctx, @Args() args: DmarcListArgs): Promise<DmarcMonitorType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map((m) => toDmarcMonitor(m, ctx.services.config));
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => DmarcMonitorType, { description: 'Starts monitoring a verified domain; its DNS records are checked at once.' })
  async create_dmarc_monitor(@Context() ctx: Ctx, @Args() args: CreateDmarcMonitorArgs): Promise<DmarcMonitorType> {
    return toDmarcMonitor(await svc(ctx).create(caller(ctx), args), ctx.services.config);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => DmarcMonitorType)
  async update_dmarc_monitor(@Context() ctx: Ctx, @Args() args: UpdateDmarcMonitorArgs): Promise<DmarcMonitorType> {
    return toDmarcMonitor(await svc(ctx).update(caller(ctx), args), ctx.services.config);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => Boolean)
  async delete_dmarc_monitor(@Context() ctx: Ctx, @Args() { monitor_id }: DmarcMonitorIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), monitor_id);
  }

  @Authorized('dmarc_monitoring_read')
  @Query(() => [DmarcReportIpType], { description: "The monitor's aggregate reports per source IP." })
  async dmarc_report(@Context() ctx: Ctx, @Args() args: DmarcReportArgs): Promise<DmarcReportIpType[]> {
    return reports(ctx).report(caller(ctx), args);
  }

  @Authorized('dmarc_monitoring_read')
  @Query(() => [DmarcReportRecordType], { description: 'The report records of one source IP.' })
  async dmarc_ip_report(@Context() ctx: Ctx, @Args() args: DmarcIpReportArgs): Promise<DmarcReportRecordType[]> {
    return reports(ctx).ipReport(caller(ctx), args);
  }

  @Authorized('dmarc_monitoring_read')
  @Query(() => [DmarcReportSourceType], { description: 'Organisations that sent reports in a period.' })
  async dmarc_report_sources(@Context() ctx: Ctx, @Args() args: DmarcReportSourcesArgs): Promise<DmarcReportSourceType[]> {
    return reports(ctx).sources(caller(ctx), args);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => Boolean, { description: "Marks a source IP of the monitor's reports as a favorite." })
  async add_dmarc_favorite(@Context() ctx: Ctx, @Args() args: DmarcFavoriteArgs): Promise<boolean> {
    return reports(ctx).addFavorite(caller(ctx), args);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => Boolean)
  async remove_dmarc_favorite(@Context() ctx: Ctx, @Args() args: DmarcFavoriteArgs): Promise<boolean> {
    return reports(ctx).removeFavorite(caller(ctx), args);
  }

  @Authorized('dmarc_monitoring_full')
  @Mutation(() => DmarcReportReceiptType, { description: 'Stores an aggregate report file, as if it had come to the report address.' })
  async upload_dmarc_report(@Context() ctx: Ctx, @Args() args: UploadDmarcReportArgs): Promise<DmarcReportReceiptType> {
    return reports(ctx).upload(caller(ctx), args);
  }
}

import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { AnalyticsArgs, AnalyticsDateArgs } from './analytics.inputs.js';
import { AnalyticsService } from './analytics.service.js';
import { AnalyticsByDate, AnalyticsByName } from './analytics.type.js';

const svc = (ctx: Ctx) => new AnalyticsService(ctx.em);

@Resolver()
export class AnalyticsResolver {
  @Authorized('analytics_read')
  @Query(() => AnalyticsByDate, { description: 'Event counts per day, week, month or year (GET /v1/analytics/date).' })
  analytics_date(@Context() ctx: Ctx, @Args() args: AnalyticsDateArgs): Promise<AnalyticsByDate> {
    return svc(ctx).byDate(caller(ctx), args);
  }

  @Authorized('analytics_read')
  @Query(() => AnalyticsByName, { description: 'Opens per country (two-letter code).' })
  analytics_country(@Context() ctx: Ctx, @Args() args: AnalyticsArgs): Promise<AnalyticsByName> {
    return svc(ctx).byName(caller(ctx), args, 'country');
  }

  @Authorized('analytics_read')
  @Query(() => AnalyticsByName, { description: 'Opens per browser or mail client with its operating system when known, e.g. "Chrome (Windows)".' })
  analytics_ua_name(@Context() ctx: Ctx, @Args() args: AnalyticsArgs): Promise<AnalyticsByName> {
    return svc(ctx).byName(caller(ctx), args, 'ua_name');
  }

  @Authorized('analytics_read')
  @Query(() => AnalyticsByName, { description: 'Opens per reading environment: webmail, mobile or desktop.' })
  analytics_ua_type(@Context() ctx: Ctx, @Args() args: AnalyticsArgs): Promise<AnalyticsByName> {
    return svc(ctx).byName(caller(ctx), args, 'ua_type');
  }
}

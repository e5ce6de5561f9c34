import { Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { OverviewService } from './overview.service.js';
import { Overview } from './overview.type.js';

@Resolver()
export class OverviewResolver {
  @Authorized()
  @Query(() => Overview, { description: "The console's landing page: sandbox or not, emails waiting, failing webhooks and the setup steps taken (GraphQL only)." })
  overview(@Context() ctx: Ctx): Promise<Overview> {
    return new OverviewService(ctx.em, ctx.services.config.MAIL_TRANSPORT === 'capture').get(caller(ctx));
  }
}

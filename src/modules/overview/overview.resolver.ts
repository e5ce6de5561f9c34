import { Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { OverviewService } from './overview.service.js';
import { AccountUsage, Overview } from './overview.type.js';
import { DomainRef } from '../domains/domain-ref.type.js';

const svc = (ctx: Ctx) => new OverviewService(ctx.em, ctx.services.config);

@Resolver()
export class OverviewResolver {
  @Authorized()
  @Query(() => Overview, { description: "The console's landing page: sandbox or not, emails waiting, failing webhooks and the setup steps taken (GraphQL only)." })
  overview(@Context() ctx: Ctx): Promise<Overview> {
    return svc(ctx).get(caller(ctx));
  }

  @Authorized()
  @Query(() => AccountUsage, { description: "The account's plan, retention, verification credits and API quota (GraphQL only)." })
  usage(@Context() ctx: Ctx): Promise<AccountUsage> {
    const auth = caller(ctx);
    return svc(ctx).usage(auth, ctx.services.meter.unwrittenQuota(auth.accountId));
  }

  @Authorized()
  @Query(() => [DomainRef], { description: 'The domains the caller reaches, by name (at most 500), for a domain picker: any scope over domain data lists them (GraphQL only).' })
  domain_choices(@Context() ctx: Ctx): Promise<DomainRef[]> {
    return svc(ctx).domainChoices(caller(ctx));
  }
}

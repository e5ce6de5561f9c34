import { Authorized, Ctx as Context, FieldResolver, Int, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { OverviewService } from './overview.service.js';
import { AccountUsage, Overview, SetupStep, WaitingEmails } from './overview.type.js';
import { DomainRef } from '../domains/domain-ref.type.js';

const svc = (ctx: Ctx) => new OverviewService(ctx.em, ctx.services.config);

/**
 * The overview's figures are field resolvers: each runs only when asked for, so the console's
 * menu asks `overview { sandbox }` on every load for nothing but a setting.
 */
@Resolver(() => Overview)
export class OverviewResolver {
  @Authorized()
  @Query(() => Overview, { description: "The console's landing page: sandbox or not, emails waiting, failing webhooks and the setup steps taken (GraphQL only)." })
  overview(@Context() ctx: Ctx): Pick<Overview, 'sandbox'> {
    return svc(ctx).get();
  }

  @FieldResolver(() => [SetupStep])
  setup(@Context() ctx: Ctx): Promise<SetupStep[]> {
    return svc(ctx).setup(caller(ctx));
  }

  @FieldResolver(() => WaitingEmails, { nullable: true })
  waiting(@Context() ctx: Ctx): Promise<WaitingEmails> | null {
    return svc(ctx).waiting(caller(ctx));
  }

  @FieldResolver(() => Int, { nullable: true })
  webhooks_failing(@Context() ctx: Ctx): Promise<number> | null {
    return svc(ctx).webhooksFailing(caller(ctx));
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

import { Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { QuotaService } from './quota.service.js';
import { ApiQuota, toApiQuota } from './quota.type.js';

@Resolver()
export class QuotaResolver {
  // API usage belongs with the API's keys; every other token sees the same figures in the
  // x-apiquota-* headers of each answer.
  @Authorized('tokens_full')
  @Query(() => ApiQuota, { description: 'The daily API quota. Asking for it does not use it up.' })
  async api_quota(@Context() ctx: Ctx): Promise<ApiQuota> {
    const auth = caller(ctx);
    return toApiQuota(await new QuotaService(ctx.em, ctx.services.config).status(auth, ctx.services.meter.unwrittenQuota(auth.accountId)));
  }
}

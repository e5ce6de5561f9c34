import { Arg, Authorized, Ctx as Context, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { OPERATOR } from '../../core/scopes.js';
import { IpPoolService } from './ip-pool.service.js';
import { IpPoolAssignmentType, IpPoolType } from './ip-pool.type.js';

/** Source address pools for MX delivery, on the operator API (GraphQL only, OPERATOR_TOKEN). */
@Resolver()
export class IpPoolResolver {
  @Authorized(OPERATOR)
  @Query(() => [IpPoolType], { description: 'The pools of IP_POOLS: each address, its EHLO name and reverse DNS, and its warm-up.' })
  async operator_ip_pools(@Context() ctx: Ctx): Promise<IpPoolType[]> {
    return new IpPoolService(ctx.em, ctx.services.config, ctx.services.dns).pools();
  }

  @Authorized(OPERATOR)
  @Mutation(() => IpPoolAssignmentType, {
    description: "Gives an account, or with `domain_id` one of its domains, the pool its mail leaves from; `pool: null` takes it back (a domain then uses its account's, an account `default`).",
  })
  async operator_set_ip_pool(
    @Context() ctx: Ctx,
    @Arg('account_id', () => ID) account_id: string,
    @Arg('domain_id', () => ID, { nullable: true }) domain_id: string | null,
    @Arg('pool', () => String, { nullable: true }) pool: string | null,
  ): Promise<IpPoolAssignmentType> {
    return new IpPoolService(ctx.em, ctx.services.config, ctx.services.dns).assign(account_id, domain_id ?? null, pool ?? null);
  }
}

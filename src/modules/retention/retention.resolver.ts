import { Arg, Authorized, Ctx as Context, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { PLANS, RETENTION_DAYS_MAX, type Plan } from '../../config/plans.js';
import { errors, msg } from '../../core/errors.js';
import { OPERATOR } from '../../core/scopes.js';
import { RetentionService } from './retention.service.js';
import { PlanRetentionType } from './retention.type.js';

/**
 * The operator's retention days per plan, on GraphQL only (operator fields never reach /v1). A
 * change applies to mail accepted after it; mail already accepted keeps its `purge_after`, and
 * the other logs follow the new days at the purge's next run.
 */
@Resolver()
export class RetentionResolver {
  @Authorized(OPERATOR)
  @Query(() => [PlanRetentionType], { description: "Each plan's retention days in force." })
  async operator_retention(@Context() ctx: Ctx): Promise<PlanRetentionType[]> {
    return new RetentionService(ctx.em, ctx.services.config).inForce();
  }

  @Authorized(OPERATOR)
  @Mutation(() => PlanRetentionType, { description: "Sets a plan's retention days; `days: null` returns it to the environment's." })
  async operator_set_retention(
    @Context() ctx: Ctx,
    @Arg('plan') plan: string,
    @Arg('days', () => Int, { nullable: true }) days: number | null,
  ): Promise<PlanRetentionType> {
    if (!PLANS.includes(plan as Plan)) throw errors.invalid('plan', msg.in('plan'));
    if (days !== null && days < 1) throw errors.invalid('days', msg.min('days', 1));
    if (days !== null && days > RETENTION_DAYS_MAX) throw errors.invalid('days', msg.max('days', RETENTION_DAYS_MAX));
    return new RetentionService(ctx.em, ctx.services.config).set(plan as Plan, days);
  }
}

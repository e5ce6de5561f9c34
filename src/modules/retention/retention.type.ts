import { Field, Int, ObjectType } from 'type-graphql';
import type { Plan } from '../../config/plans.js';

@ObjectType({ description: "A plan's retention: how many days the mail and logs of its accounts are kept." })
export class PlanRetentionType {
  @Field(() => String) plan!: Plan;
  @Field(() => Int, { description: 'The days in force: the operator\'s, else the environment\'s.' }) days!: number;
  @Field(() => Int, { description: 'The environment\'s days (`RETENTION_DAYS_<PLAN>`).' }) default_days!: number;
  @Field({ description: 'Whether the operator set the days in force (operator_set_retention).' }) overridden!: boolean;
}

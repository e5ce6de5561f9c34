import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Plan } from '../../config/plans.js';

/**
 * A plan's retention as the operator set it (operator_set_retention), over the environment's
 * (`RETENTION_DAYS_<PLAN>`). A change NOTIFYs every process's sender cache (migration
 * Migration20261128220000_plan_retention), so sends accepted after it are stamped with the new
 * days; mail already accepted keeps the `purge_after` it was stamped with (SPEC.md: retention
 * depends on the account's retention at send time).
 */
@Entity({ tableName: 'plan_retention' })
export class PlanRetention {
  @PrimaryKey({ type: 'string', length: 32 })
  plan!: Plan;

  @Property({ type: 'integer' })
  days!: number;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  updated_at: Opt<Date> = new Date();
}

import type { Opt } from '@mikro-orm/core';
import { Entity, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import type { Plan } from '../../config/plans.js';

export { PLANS, type Plan } from '../../config/plans.js';

@Entity({ tableName: 'accounts' })
export class Account extends BaseEntity {
  @Property({ type: 'string', length: 191 })
  name!: string;

  @Property({ type: 'string', length: 20 })
  plan: Opt<Plan> = 'free';

  @Property({ type: 'integer' })
  verification_credits: Opt<number> = 0;

  /** The pool of source addresses its mail leaves from (IP_POOLS), unless its domain has one. */
  @Property({ type: 'string', length: 64, nullable: true })
  ip_pool: string | null = null;
}

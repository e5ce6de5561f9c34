import type { EntityManager } from '@mikro-orm/postgresql';
import { environmentRetention, PLANS, type Plan } from '../../config/plans.js';
import type { Config } from '../../config/index.js';
import { RetentionRepository } from './retention.repository.js';

/** A plan's retention in force, and where it comes from. */
export interface PlanRetentionInForce {
  plan: Plan;
  days: number;
  default_days: number;
  overridden: boolean;
}

/**
 * Retention days per plan: the operator's (plan_retention) over the environment's
 * (`RETENTION_DAYS_<PLAN>`). Acceptance reads them with the account's plan (the sender cache,
 * emptied by a change's NOTIFY); the purge job reads them at each run.
 */
export class RetentionService {
  private readonly repo: RetentionRepository;

  constructor(
    em: EntityManager,
    private readonly config: Config,
  ) {
    this.repo = new RetentionRepository(em);
  }

  async inForce(): Promise<PlanRetentionInForce[]> {
    const defaults = environmentRetention(this.config);
    const overrides = await this.repo.overrides();
    return PLANS.map((plan) => ({
      plan,
      days: overrides[plan] ?? defaults[plan],
      default_days: defaults[plan],
      overridden: overrides[plan] !== undefined,
    }));
  }

  async daysByPlan(): Promise<Record<Plan, number>> {
    return Object.fromEntries((await this.inForce()).map((r) => [r.plan, r.days])) as Record<Plan, number>;
  }

  /**
   * The oldest instant an account's logs still show: rows older than its plan's retention wait in
   * a partitioned table's week until the week drops (partitions.ts), out of every read.
   */
  async shownSince(account: { plan: string }, now = new Date()): Promise<Date> {
    const byPlan = await this.daysByPlan();
    const days = byPlan[account.plan as Plan] ?? Math.max(...Object.values(byPlan));
    return new Date(now.getTime() - days * 86_400_000);
  }

  async set(plan: Plan, days: number | null): Promise<PlanRetentionInForce> {
    await this.repo.setOverride(plan, days);
    return (await this.inForce()).find((r) => r.plan === plan)!;
  }
}

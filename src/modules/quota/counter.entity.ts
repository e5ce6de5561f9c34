import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { Account } from '../accounts/account.entity.js';
import { ApiToken } from '../tokens/token.entity.js';

/**
 * A token's request count in its current rate window. One row per token, reused when the window
 * has ended (nothing accumulates per window); the token's deletion takes the row with it.
 */
@Entity({ tableName: 'api_rate_counters' })
export class ApiRateCounter {
  @ManyToOne(() => ApiToken, { primary: true, deleteRule: 'cascade' })
  token!: ApiToken;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  window_end!: Date;

  @Property({ type: 'integer' })
  hits!: number;
}

/**
 * An account's API requests on one UTC day, and in its current rate window (all its tokens and
 * SMTP users together, so that making new tokens does not make new room); one row per account,
 * reset on its first request of a new day or window.
 */
@Entity({ tableName: 'api_quota_counters' })
export class ApiQuotaCounter {
  @ManyToOne(() => Account, { primary: true, deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'date' })
  day!: string;

  @Property({ type: 'integer' })
  hits!: number;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  rate_window_end: Date | null = null;

  @Property({ type: 'integer', default: 0 })
  rate_hits: number = 0;
}

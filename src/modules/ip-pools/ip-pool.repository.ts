import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows } from '../../db/sql.js';

/** Today, as UTC days count for warm-up. */
const TODAY = `(now() at time zone 'utc')::date`;

/**
 * One send's place in its address's warm-up ($2: the daily caps from its first day). The first
 * send starts the warm-up; on each later day the count starts again; a day past the schedule has
 * no cap. No row comes back when today's cap is reached. `done`: the schedule is over for it.
 */
const WARM_UP_PERMIT = `insert into delivery_sources as s (address, warmup_started, day, sent)
  values ($1, ${TODAY}, ${TODAY}, 1)
  on conflict (address) do update
     set sent = case when s.day = ${TODAY} then s.sent + 1 else 1 end, day = ${TODAY}
   where s.day <> ${TODAY} or s.sent < coalesce(($2::int[])[${TODAY} - s.warmup_started + 1], 2147483647)
  returning ${TODAY} - warmup_started + 1 > cardinality($2::int[]) as done`;

/** An address's warm-up as it stands today (read for the operator). */
export interface WarmUpState {
  address: string;
  /** Days since its first send, the first day being 1. */
  day: number;
  sent_today: number;
}

/** Source addresses' warm-up (delivery_sources) and the pools given to accounts and domains. */
export class IpPoolRepository {
  constructor(private readonly em: EntityManager) {}

  /** A permit for one send from `address` under its warm-up: `full` when today's cap is reached, `done` when the warm-up is over. */
  async warmUpPermit(address: string, schedule: readonly number[]): Promise<'ok' | 'full' | 'done'> {
    const row = await sqlRow<{ done: boolean }>(this.em, WARM_UP_PERMIT, [address, `{${schedule.join(',')}}`]);
    if (!row) return 'full';
    return row.done ? 'done' : 'ok';
  }

  async warmUps(addresses: string[]): Promise<WarmUpState[]> {
    return sqlRows<WarmUpState>(
      this.em,
      `select address, (${TODAY} - warmup_started + 1)::int as day, case when day = ${TODAY} then sent else 0 end as sent_today
         from delivery_sources where address = any($1::text[])`,
      [`{${addresses.join(',')}}`],
    );
  }

  /** Gives the account, or its domain, a pool (null: none); answers whether the account, or the domain of that account, exists. */
  async assign(accountId: string, domainId: string | null, pool: string | null): Promise<boolean> {
    const row = domainId
      ? await sqlRow<{ id: string }>(this.em, 'update domains set ip_pool = $3 where id = $1 and account_id = $2 returning id', [domainId, accountId, pool])
      : await sqlRow<{ id: string }>(this.em, 'update accounts set ip_pool = $2 where id = $1 returning id', [accountId, pool]);
    return row !== null;
  }
}

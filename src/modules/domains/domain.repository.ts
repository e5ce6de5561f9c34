import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, sqlCount, sqlRow, sqlRows, textArray } from '../../db/sql.js';
import type { Domain } from './domain.entity.js';

/** A domain as its list shows it: the columns the list item is made of, plain. */
export type DomainListRow = Pick<
  Domain,
  'id' | 'name' | 'dkim' | 'spf' | 'tracking' | 'is_verified' | 'is_dns_active' | 'is_cname_verified' | 'settings' | 'created_at' | 'updated_at'
>;

/** The filters of the domain list: the account, a domain-limited caller's domains (one or several), verified or not. */
export interface DomainListFilter {
  accountId: string;
  domainIds: readonly string[] | null;
  verified: boolean | null;
}

/**
 * One page of domains, the total and each row's not-queued count in one statement: the page is
 * cut first (`count(*) over ()` is the total before the cut), then only its rows are counted.
 *
 * A message is "not queued" while it is accepted but not yet handed to delivery: `paused` (held
 * by the domain's send_paused) or `scheduled` (waiting for its send_at), the messages' `waiting`
 * column (messages/message.status.ts WAITING_MESSAGE, a generated column with its own index). Both will still go
 * out without another request, which is what `has_not_queued_messages` warns about. Counted per
 * message, not per recipient.
 */
const LIST_SQL = `with page as (
    select id, name, dkim, spf, tracking, is_verified, is_dns_active, is_cname_verified, settings, created_at, updated_at,
      count(*) over () as total
    from domains
    where account_id = $1 and ($2::varchar[] is null or id = any($2)) and ($3::boolean is null or is_verified = $3)
    order by created_at desc, id desc limit $4 offset $5)
  select page.*, (select count(*) from messages m where m.domain_id = page.id and m.waiting)::int as not_queued
  from page order by created_at desc, id desc`;
const COUNT_SQL = `select count(*)::int as n from domains
  where account_id = $1 and ($2::varchar[] is null or id = any($2)) and ($3::boolean is null or is_verified = $3)`;

/** Seed of the advisory locks that serialise creations of related names (domain.service.ts lockNameFamily). */
const NAME_LOCK_SEED = 7301;

export class DomainRepository {
  constructor(private readonly em: EntityManager) {}

  /** One page of the list, newest first, with the total and each domain's not-queued count. */
  async listPage(filter: DomainListFilter, limit: number, offset: number): Promise<{ rows: (DomainListRow & { not_queued: number })[]; total: number }> {
    const where = [filter.accountId, filter.domainIds && textArray(filter.domainIds), filter.verified];
    const rows = await sqlRows<DomainListRow & { not_queued: number; total: string }>(this.em, { name: 'domains.list', text: LIST_SQL }, [...where, limit, offset]);
    // A page past the end has no row to carry the total: only then is it counted on its own.
    const total = rows.length ? Number(rows[0].total) : offset ? (await sqlRow<{ n: number }>(this.em, { name: 'domains.count', text: COUNT_SQL }, where))!.n : 0;
    return {
      rows: rows.map(({ total: _total, ...r }) => ({ ...r, created_at: asDate(r.created_at), updated_at: asDate(r.updated_at) })),
      total,
    };
  }

  /** Not-queued message counts for a page of domains, in one grouped query; absent ids have none. */
  async notQueuedCounts(domainIds: string[]): Promise<Map<string, number>> {
    if (!domainIds.length) return new Map();
    const rows = await sqlRows<{ domain_id: string; n: number }>(
      this.em,
      `select domain_id, count(*)::int as n from messages
        where domain_id = any($1::text[]) and waiting
        group by domain_id`,
      [textArray(domainIds)],
    );
    return new Map(rows.map((r) => [r.domain_id, Number(r.n)]));
  }

  /**
   * All-time activity counts of one domain by type, from the daily rollup (never the activity
   * rows). Every asked type is present, 0 when nothing was recorded.
   */
  async activityTotals<T extends string>(accountId: string, domainId: string, types: readonly T[]): Promise<Record<T, number>> {
    const rows = await sqlRows<{ type: T; n: number | string }>(
      this.em,
      `select type, sum(count)::bigint as n from activity_stats
        where account_id = $1 and domain_id = $2 and type = any($3::text[])
        group by type`,
      [accountId, domainId, textArray(types)],
    );
    const totals = Object.fromEntries(types.map((t) => [t, 0])) as Record<T, number>;
    for (const r of rows) totals[r.type] = Number(r.n);
    return totals;
  }

  /** Whether another account holds a parent of the name (one of `parents`) or a subdomain of it. */
  async foreignRelativeExists(accountId: string, name: string, parents: string[]): Promise<boolean> {
    const row = await sqlRow(
      this.em,
      'select 1 as n from domains where account_id <> $1 and (name = any($2::text[]) or right(name, $3) = $4) limit 1',
      [accountId, textArray(parents), name.length + 1, `.${name}`],
    );
    return row !== null;
  }

  /** A transaction-scoped advisory lock on one name. */
  async lockName(name: string): Promise<void> {
    await sqlRows(this.em, 'select pg_advisory_xact_lock(hashtextextended($1, $2))', [`domain:${name}`, NAME_LOCK_SEED]);
  }

  /** Domains verified only by the sandbox's trust lose their verification; returns how many. */
  async unverifyTrusted(): Promise<number> {
    return sqlCount(this.em, 'update domains set is_verified = false, is_dns_active = false, updated_at = now() where trusted and is_verified');
  }
}

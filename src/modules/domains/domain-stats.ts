import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A message is "not queued" while it is accepted but not yet handed to delivery: `paused` (held
 * by the domain's send_paused) or `scheduled` (waiting for its send_at). Both will still go out
 * without another request, which is what `has_not_queued_messages` warns about. Counted per
 * message, not per recipient.
 */
const NOT_QUEUED = `('paused', 'scheduled')`;

/** Not-queued message counts for a page of domains, in one grouped query; absent ids have none. */
export async function notQueuedCounts(em: EntityManager, domainIds: string[]): Promise<Map<string, number>> {
  if (!domainIds.length) return new Map();
  const rows = await em.execute<{ domain_id: string; n: number }[]>(
    `select domain_id, count(*)::int as n from messages
      where domain_id in (${domainIds.map(() => '?').join(', ')}) and status in ${NOT_QUEUED}
      group by domain_id`,
    domainIds,
  );
  return new Map(rows.map((r) => [r.domain_id, Number(r.n)]));
}

/**
 * All-time activity counts of one domain by type, from the daily rollup (never the activity
 * rows). Every asked type is present, 0 when nothing was recorded.
 */
export async function activityTotals<T extends string>(
  em: EntityManager,
  accountId: string,
  domainId: string,
  types: readonly T[],
): Promise<Record<T, number>> {
  const rows = await em.execute<{ type: T; n: number | string }[]>(
    `select type, sum(count)::bigint as n from activity_stats
      where account_id = ? and domain_id = ? and type in (${types.map(() => '?').join(', ')})
      group by type`,
    [accountId, domainId, ...types],
  );
  const totals = Object.fromEntries(types.map((t) => [t, 0])) as Record<T, number>;
  for (const r of rows) totals[r.type] = Number(r.n);
  return totals;
}

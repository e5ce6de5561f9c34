/** The pubsub topic of an account's new activities (the `activity` subscription). */
export const activityTopic = (accountId: string) => `activity:${accountId}`;

/** What live `activity` subscribers are told when activities commit: the domain and the ids. */
export interface ActivityNotice {
  domain_id: string;
  ids: string[];
}

/** One notice per account and domain of `rows`, with its topic. */
export function activityNotices(rows: { id: string; account_id: string; domain_id: string }[]): [string, ActivityNotice][] {
  const by = new Map<string, [string, ActivityNotice]>();
  for (const r of rows) {
    const key = `${r.account_id} ${r.domain_id}`;
    const hit = by.get(key);
    if (hit) hit[1].ids.push(r.id);
    else by.set(key, [activityTopic(r.account_id), { domain_id: r.domain_id, ids: [r.id] }]);
  }
  return [...by.values()];
}

import type { EntityManager } from '@mikro-orm/postgresql';

/** Why an address must not be sent to; the values of an activity's `suppression_reason`. */
export type SuppressionReason = 'on_hold' | 'hard_bounced' | 'unsubscribed' | 'spam_complained' | 'blocklisted';

const REASON_OF_LIST: Record<string, SuppressionReason> = {
  on_hold: 'on_hold',
  hard_bounces: 'hard_bounced',
  unsubscribes: 'unsubscribed',
  spam_complaints: 'spam_complained',
};

/** When an address is on several lists, the first reason here is the one reported. */
const PRIORITY: SuppressionReason[] = ['on_hold', 'hard_bounced', 'unsubscribed', 'spam_complained', 'blocklisted'];

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The suppression check of the sending pipeline: one query, whatever the number of addresses.
 * Addresses absent from the map may be sent to.
 */
export async function reasonsFor(
  em: EntityManager,
  accountId: string,
  domainId: string,
  emails: string[],
): Promise<Map<string, SuppressionReason>> {
  const found = new Map<string, Set<SuppressionReason>>();
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (!lowered.length) return new Map();
  const note = (email: string, reason: SuppressionReason) => {
    (found.get(email) ?? found.set(email, new Set()).get(email)!).add(reason);
  };

  // One round trip for both: the recipient lists by address, and the blocklist's exact entries
  // by address plus all of its patterns (those must be tried against each address).
  const rows = await em.execute<{ kind: string; list: string; email: string | null; pattern: string | null }[]>(
    `select 'list' as kind, s.list, lower(r.email) as email, null as pattern
       from suppressions s join recipients r on r.id = s.recipient_id
      where s.account_id = ? and s.domain_id = ? and s.list <> 'blocklist'
        and (s.list <> 'on_hold' or s.on_hold_until > now())
        and lower(r.email) in (${placeholders(lowered.length)})
     union all
     select 'block' as kind, type as list, null as email, pattern from suppressions
      where account_id = ? and list = 'blocklist' and (domain_id = ? or domain_id is null)
        and (type = 'pattern' or lower(pattern) in (${placeholders(lowered.length)}))`,
    [accountId, domainId, ...lowered, accountId, domainId, ...lowered],
  );
  for (const row of rows) if (row.kind === 'list') note(row.email!, REASON_OF_LIST[row.list]);
  const blocked = rows.filter((r) => r.kind === 'block').map((r) => ({ type: r.list, pattern: r.pattern! }));
  const exact = new Set(blocked.filter((b) => b.type === 'email').map((b) => b.pattern.toLowerCase()));
  const patterns = blocked.filter((b) => b.type === 'pattern').flatMap((b) => compile(b.pattern));
  for (const email of lowered) {
    if (exact.has(email) || patterns.some((re) => re.test(email))) note(email, 'blocklisted');
  }

  const out = new Map<string, SuppressionReason>();
  for (const email of emails) {
    const reasons = found.get(email.toLowerCase());
    if (reasons) out.set(email, PRIORITY.find((r) => reasons.has(r))!);
  }
  return out;
}

/** Patterns were checked when added; one that no longer compiles is skipped rather than failing a send. */
function compile(pattern: string): RegExp[] {
  try {
    return [new RegExp(pattern, 'i')];
  } catch {
    return [];
  }
}

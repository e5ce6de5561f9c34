import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { RecipientList, Suppression, SuppressionList } from './suppression.entity.js';

const BLOCKLIST = 'blocklist' satisfies SuppressionList;
const ON_HOLD = 'on_hold' satisfies SuppressionList;
/** A blocklist entry that is a pattern (the other kind is an exact address). */
const PATTERN = 'pattern' satisfies Suppression['type'];

/** What the suppression check reads in one round trip: list entries by address, and blocklist entries to try. */
export type MatchRow =
  | { kind: 'list'; list: RecipientList; email: string; pattern: null }
  | { kind: 'block'; list: 'email' | 'pattern'; email: null; pattern: string };

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class SuppressionRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Adds to one list of one domain (or the account's blocklist, domain null) run one at a time
   * (a transaction-scoped advisory lock), so two identical requests at once cannot both insert:
   * the second finds what the first wrote. Every writer of a list takes this same lock.
   */
  async lockList(accountId: string, list: SuppressionList, domainId: string | null): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtext(?))', [`suppressions:${accountId}:${list}:${domainId ?? '*'}`]);
  }

  /** Lists the recipient unless it is on that list of its domain already (call under `lockList`). */
  async addIfAbsent(entry: { accountId: string; domainId: string; recipientId: string; list: RecipientList; reason: string }): Promise<void> {
    await this.em.execute(
      `insert into suppressions (id, created_at, updated_at, account_id, domain_id, list, recipient_id, reason)
       select ?, now(), now(), ?, ?, ?, ?, ?
        where not exists (select 1 from suppressions where domain_id = ? and list = ? and recipient_id = ?)`,
      [newId(), entry.accountId, entry.domainId, entry.list, entry.recipientId, entry.reason, entry.domainId, entry.list, entry.recipientId],
    );
  }

  /**
   * The recipient lists' entries of these (lower-cased) addresses on the domain, holds still
   * running, and the blocklist entries that may match them: their exact addresses, and every
   * pattern (those must be tried against each address).
   */
  matchRows(accountId: string, domainId: string, lowered: string[]): Promise<MatchRow[]> {
    return this.em.execute<MatchRow[]>(
      `select 'list' as kind, s.list, lower(r.email) as email, null as pattern
         from suppressions s join recipients r on r.id = s.recipient_id
        where s.account_id = ? and s.domain_id = ? and s.list <> ?
          and (s.list <> ? or s.on_hold_until > now())
          and lower(r.email) in (${placeholders(lowered.length)})
       union all
       select 'block' as kind, type as list, null as email, pattern from suppressions
        where account_id = ? and list = ? and (domain_id = ? or domain_id is null)
          and (type = ? or lower(pattern) in (${placeholders(lowered.length)}))`,
      [accountId, domainId, BLOCKLIST, ON_HOLD, ...lowered, accountId, BLOCKLIST, domainId, PATTERN, ...lowered],
    );
  }
}

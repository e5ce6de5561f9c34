import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRows } from '../../db/sql.js';
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

/** What matchCte reads (as jsonb): whose lists, which lower-cased addresses, and the kinds it asks about. */
export function matchInput(accountId: string, domainId: string, lowered: string[]) {
  return { account_id: accountId, domain_id: domainId, emails: lowered, blocklist: BLOCKLIST, on_hold: ON_HOLD, pattern: PATTERN };
}

/**
 * The CTE `name`: the suppression check's rows (MatchRow) for the matchInput in `param` (jsonb),
 * in one query. matchRows runs it; a statement that checks suppressions and writes in one go (the
 * acceptance of a send) embeds it.
 */
export function matchCte(name: string, param: string, many = false): string {
  // `many`: an array of inputs (several sends checked at once), each matched on its own account and domain.
  return `${name}_in as (
    select * from ${many ? 'jsonb_to_recordset' : 'jsonb_to_record'}(${param}) as x(account_id text, domain_id text, emails text[], blocklist text, on_hold text, pattern text)
  ),
  ${name} as (
    select 'list' as kind, s.list, lower(r.email) as email, null as pattern
      from ${name}_in i join suppressions s on s.account_id = i.account_id and s.domain_id = i.domain_id
      join recipients r on r.id = s.recipient_id
     where s.list <> i.blocklist and (s.list <> i.on_hold or s.on_hold_until > now()) and lower(r.email) = any(i.emails)
    union all
    select 'block' as kind, s.type as list, null as email, s.pattern
      from ${name}_in i join suppressions s on s.account_id = i.account_id and s.list = i.blocklist
     where (s.domain_id = i.domain_id or s.domain_id is null) and (s.type = i.pattern or lower(s.pattern) = any(i.emails))
  )`;
}

export class SuppressionRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Adds to one list of one domain (or the account's blocklist, domain null) run one at a time
   * (a transaction-scoped advisory lock), so two identical requests at once cannot both insert:
   * the second finds what the first wrote. Every writer of a list takes this same lock.
   */
  async lockList(accountId: string, list: SuppressionList, domainId: string | null): Promise<void> {
    await sqlRows(this.em, 'select pg_advisory_xact_lock(hashtext($1))', [`suppressions:${accountId}:${list}:${domainId ?? '*'}`]);
  }

  /** Lists the recipient unless it is on that list of its domain already (call under `lockList`). */
  async addIfAbsent(entry: { accountId: string; domainId: string; recipientId: string; list: RecipientList; reason: string }): Promise<void> {
    await sqlCount(
      this.em,
      `insert into suppressions (id, created_at, updated_at, account_id, domain_id, list, recipient_id, reason)
       select $1, now(), now(), $2, $3, $4, $5, $6
        where not exists (select 1 from suppressions where domain_id = $7 and list = $8 and recipient_id = $9)`,
      // The checked values are parameters of their own: one parameter used both in the select
      // list (text) and against a varchar column is refused as of inconsistent types (the
      // unsubscribe of test/tracking/tracking.test.ts goes through here).
      [newId(), entry.accountId, entry.domainId, entry.list, entry.recipientId, entry.reason, entry.domainId, entry.list, entry.recipientId],
    );
  }

  /**
   * The recipient lists' entries of these (lower-cased) addresses on the domain, holds still
   * running, and the blocklist entries that may match them: their exact addresses, and every
   * pattern (those must be tried against each address).
   */
  matchRows(accountId: string, domainId: string, lowered: string[]): Promise<MatchRow[]> {
    return sqlRows<MatchRow>(this.em, `with ${matchCte('m', '$1::jsonb')} select kind, list, email, pattern from m`, [
      JSON.stringify(matchInput(accountId, domainId, lowered)),
    ]);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows, textArray } from '../../db/sql.js';

/** The audit log's own SQL. Reading api_tokens here keeps the audit module free of the tokens module, which records into it. */
export class AuditRepository {
  constructor(private readonly em: EntityManager) {}

  /** Of these token ids, those of the account's tokens limited to one of these domains: the actors a domain-limited caller may see named. */
  async visibleTokenIds(accountId: string, domainIds: readonly string[], ids: string[]): Promise<Set<string>> {
    const rows = await sqlRows<{ id: string }>(
      this.em,
      'select id from api_tokens where account_id = $1 and domain_id = any($2::text[]) and id = any($3::text[])',
      [accountId, textArray(domainIds), textArray(ids)],
    );
    return new Set(rows.map((t) => t.id));
  }
}

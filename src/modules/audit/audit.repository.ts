import type { EntityManager } from '@mikro-orm/postgresql';

/** The audit log's own SQL. Reading api_tokens here keeps the audit module free of the tokens module, which records into it. */
export class AuditRepository {
  constructor(private readonly em: EntityManager) {}

  /** Of these token ids, those of the account's tokens limited to one of these domains: the actors a domain-limited caller may see named. */
  async visibleTokenIds(accountId: string, domainIds: readonly string[], ids: string[]): Promise<Set<string>> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select id from api_tokens where account_id = ? and domain_id in (${domainIds.map(() => '?').join(', ')}) and id in (${ids.map(() => '?').join(', ')})`,
      [accountId, ...domainIds, ...ids],
    );
    return new Set(rows.map((t) => t.id));
  }
}

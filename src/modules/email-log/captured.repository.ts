import type { EntityManager } from '@mikro-orm/postgresql';

export interface CapturedEmailRow {
  id: string;
  email_id: string;
  message_id: string;
  domain_id: string;
  from: string;
  to: string;
  subject: string;
  created_at: Date;
}

/** What the capture transport kept (captured_mails), by the account and domain of each email's message. */
export class CapturedEmailRepository {
  constructor(private readonly em: EntityManager) {}

  /** Newest first, and how many there are in all. */
  async page(accountId: string, domainIds: readonly string[] | null, page: { limit: number; offset: number }): Promise<{ rows: CapturedEmailRow[]; total: number }> {
    // domainIds: the domains a limited caller reaches (one or several); null for the whole account.
    const scope = `m.account_id = ?${domainIds ? ' and m.domain_id in (?)' : ''}`;
    const params = domainIds ? [accountId, [...domainIds]] : [accountId];
    const from = `from captured_mails c join emails e on e.id = c.email_id join messages m on m.id = e.message_id where ${scope}`;
    const rows = await this.em.execute<CapturedEmailRow[]>(
      `select c.id, c.email_id, m.id as message_id, m.domain_id, c."from", c."to", c.subject, c.created_at
         ${from} order by c.created_at desc, c.id desc limit ? offset ?`,
      [...params, page.limit, page.offset],
    );
    const [count] = await this.em.execute<{ n: number }[]>(`select count(*)::int as n ${from}`, params);
    return { rows, total: count.n };
  }
}

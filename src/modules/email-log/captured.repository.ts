import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows, textArray, Where } from '../../db/sql.js';
import { messageShown } from '../messages/message.status.js';

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
    const w = new Where().add('m.account_id = ?', accountId);
    if (domainIds) w.add('m.domain_id = any(?::text[])', textArray(domainIds));
    const from = `from captured_mails c join emails e on e.id = c.email_id join messages m on m.id = e.message_id and ${messageShown('m')} where ${w.sql}`;
    const scope = [...w.params];
    const rows = await sqlRows<CapturedEmailRow>(
      this.em,
      `select c.id, c.email_id, m.id as message_id, m.domain_id, c."from", c."to", c.subject, c.created_at
         ${from} order by c.created_at desc, c.id desc limit ${w.param(page.limit)} offset ${w.param(page.offset)}`,
      w.params,
    );
    const count = await sqlRow<{ n: number }>(this.em, `select count(*)::int as n ${from}`, scope);
    return { rows, total: count?.n ?? 0 };
  }
}

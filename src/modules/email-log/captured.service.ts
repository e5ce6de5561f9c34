import type { EntityManager } from '@mikro-orm/postgresql';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta, type PageMeta, type PageQuery } from '../../core/page.js';

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

/**
 * What the capture transport holds of the account's emails (MAIL_TRANSPORT=capture: nothing
 * leaves the machine), newest first: the sandbox's inbox. A domain-limited token sees its
 * domain's only. The content itself is on the email (GET /v1/email/{id}).
 */
export class CapturedEmailService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: PageQuery): Promise<{ rows: CapturedEmailRow[]; meta: PageMeta }> {
    const scope = `m.account_id = ?${auth.domainId ? ' and m.domain_id = ?' : ''}`;
    const params = auth.domainId ? [auth.accountId, auth.domainId] : [auth.accountId];
    const from = `from captured_mails c join emails e on e.id = c.email_id join messages m on m.id = e.message_id where ${scope}`;
    const rows = await this.em.execute<CapturedEmailRow[]>(
      `select c.id, c.email_id, m.id as message_id, m.domain_id, c."from", c."to", c.subject, c.created_at
         ${from} order by c.created_at desc, c.id desc limit ? offset ?`,
      [...params, args.limit, offsetOf(args)],
    );
    const [count] = await this.em.execute<{ n: number }[]>(`select count(*)::int as n ${from}`, params);
    return { rows: rows.map((r) => ({ ...r, created_at: new Date(r.created_at) })), meta: pageMeta(args, rows.length, count.n) };
  }
}

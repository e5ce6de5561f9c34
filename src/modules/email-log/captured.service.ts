import type { EntityManager } from '@mikro-orm/postgresql';
import { type Actor, domainsOf } from '../../core/actor.js';
import { offsetOf, pageMeta, type PageMeta, type PageQuery } from '../../core/page.js';
import { CapturedEmailRepository, type CapturedEmailRow } from './captured.repository.js';

/**
 * What the capture transport holds of the account's emails (MAIL_TRANSPORT=capture: nothing
 * leaves the machine), newest first: the sandbox's inbox. A domain-limited caller sees its
 * domains' only. The content itself is on the email (GET /v1/email/{id}).
 */
export class CapturedEmailService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: PageQuery): Promise<{ rows: CapturedEmailRow[]; meta: PageMeta }> {
    const { rows, total } = await new CapturedEmailRepository(this.em).page(auth.accountId, domainsOf(auth), { limit: args.limit, offset: offsetOf(args) });
    return { rows: rows.map((r) => ({ ...r, created_at: new Date(r.created_at) })), meta: pageMeta(args, rows.length, total) };
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../db/prepared.js';
import { asDate, textArray } from '../../db/sql.js';
import { PENDING_EMAIL, type EmailStatus } from '../messages/status.js';
import type { Template } from './template.entity.js';

/** A template as its list shows it: the columns the list item is made of, plain (no bodies). */
export type TemplateListRow = Pick<Template, 'id' | 'name' | 'description' | 'type' | 'image_path' | 'tags' | 'variables' | 'created_at' | 'updated_at'>;

/**
 * One page of templates and the total in one statement (`count(*) over ()` counts before the cut).
 * $2: the domains it may show (null: all, account-wide ones included); $3: the templates it may show (null: all).
 */
const LIST_WHERE = 'account_id = $1 and ($2::varchar[] is null or domain_id = any($2)) and ($3::varchar[] is null or id = any($3))';
const LIST_SQL = `select id, name, description, type, image_path, tags, variables, created_at, updated_at, count(*) over () as total
  from templates where ${LIST_WHERE} order by created_at desc, id desc limit $4 offset $5`;
const COUNT_SQL = `select count(*)::int as n from templates where ${LIST_WHERE}`;

/**
 * How an email's status counts in template_stats (every email counts in `total`):
 * - queued: still to be delivered (PENDING_EMAIL)
 * - sent: it left; `delivered` is also counted on its own
 * - rejected: it will not arrive
 * `last_email_sent_at` is the creation time of the newest email that was sent.
 */
const SENT = ['sent', 'delivered'] as const satisfies readonly EmailStatus[];
const DELIVERED = 'delivered' satisfies EmailStatus;
const REJECTED = ['suppressed', 'rejected', 'cancelled', 'hard_bounced', 'soft_bounced'] as const satisfies readonly EmailStatus[];

export interface TemplateStatsRow {
  total: number;
  queued: number;
  sent: number;
  rejected: number;
  delivered: number;
  last_email_sent_at: unknown;
}

export class TemplateRepository {
  constructor(private readonly em: EntityManager) {}

  /** One page of the account's templates (or of some domains', or some templates), newest first, with the total. */
  async listPage(
    scope: { accountId: string; domainIds: readonly string[] | null; templateIds: readonly string[] | null },
    limit: number,
    offset: number,
  ): Promise<{ rows: TemplateListRow[]; total: number }> {
    const where = [scope.accountId, scope.domainIds, scope.templateIds];
    const rows = await preparedRows<TemplateListRow & { total: string }>(this.em, 'templates.list', LIST_SQL, [...where, limit, offset]);
    // A page past the end has no row to carry the total: only then is it counted on its own.
    const total = rows.length ? Number(rows[0].total) : offset ? (await preparedRows<{ n: number }>(this.em, 'templates.count', COUNT_SQL, where))[0].n : 0;
    return { rows: rows.map(({ total: _total, ...r }) => ({ ...r, created_at: asDate(r.created_at), updated_at: asDate(r.updated_at) })), total };
  }

  /** Takes a deleted category out of the account's templates (its id is not reused, but kept tidy). */
  async forgetCategory(accountId: string, categoryId: string): Promise<void> {
    await this.em.execute(
      `update templates set category_ids = array_remove(category_ids, ?) where account_id = ? and ? = any(category_ids)`,
      [categoryId, accountId, categoryId],
    );
  }

  /** What the account's emails sent with the template have become, in one pass over them. */
  async stats(templateId: string, accountId: string): Promise<TemplateStatsRow> {
    const sent = textArray(SENT);
    const [stats] = await this.em.execute<TemplateStatsRow[]>(
      `select count(*)::int as total,
          count(*) filter (where e.status = any(?::text[]))::int as queued,
          count(*) filter (where e.status = any(?::text[]))::int as sent,
          count(*) filter (where e.status = any(?::text[]))::int as rejected,
          count(*) filter (where e.status = ?)::int as delivered,
          max(e.created_at) filter (where e.status = any(?::text[])) as last_email_sent_at
        from emails e join messages m on m.id = e.message_id
        where m.template_id = ? and m.account_id = ?`,
      [textArray(PENDING_EMAIL), sent, textArray(REJECTED), DELIVERED, sent, templateId, accountId],
    );
    return stats;
  }
}

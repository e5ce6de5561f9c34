import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, sqlCount, sqlRow, sqlRows, textArray } from '../../db/sql.js';
import { messageShown, PENDING_EMAIL, type EmailStatus } from '../messages/message.status.js';
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
    const where = [scope.accountId, scope.domainIds && textArray(scope.domainIds), scope.templateIds && textArray(scope.templateIds)];
    const rows = await sqlRows<TemplateListRow & { total: string }>(this.em, { name: 'templates.list', text: LIST_SQL }, [...where, limit, offset]);
    // A page past the end has no row to carry the total: only then is it counted on its own.
    const total = rows.length ? Number(rows[0].total) : offset ? ((await sqlRow<{ n: number }>(this.em, { name: 'templates.count', text: COUNT_SQL }, where))?.n ?? 0) : 0;
    return { rows: rows.map(({ total: _total, ...r }) => ({ ...r, created_at: asDate(r.created_at), updated_at: asDate(r.updated_at) })), total };
  }

  /** Takes a deleted category out of the account's templates (its id is not reused, but kept tidy). */
  async forgetCategory(accountId: string, categoryId: string): Promise<void> {
    await sqlCount(this.em, 'update templates set category_ids = array_remove(category_ids, $1) where account_id = $2 and $1 = any(category_ids)', [
      categoryId,
      accountId,
    ]);
  }

  /** What the account's emails sent with the template have become, in one pass over them. */
  async stats(templateId: string, accountId: string): Promise<TemplateStatsRow> {
    const [stats] = await sqlRows<TemplateStatsRow>(
      this.em,
      `select count(*)::int as total,
          count(*) filter (where e.status = any($1::text[]))::int as queued,
          count(*) filter (where e.status = any($2::text[]))::int as sent,
          count(*) filter (where e.status = any($3::text[]))::int as rejected,
          count(*) filter (where e.status = $4)::int as delivered,
          max(e.created_at) filter (where e.status = any($2::text[])) as last_email_sent_at
        from emails e join messages m on m.id = e.message_id and ${messageShown('m')}
        where m.template_id = $5 and m.account_id = $6`,
      [textArray(PENDING_EMAIL), textArray(SENT), textArray(REJECTED), DELIVERED, templateId, accountId],
    );
    return stats;
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows, textArray } from '../../db/sql.js';
import { PENDING_EMAIL } from '../messages/message.status.js';
import { WEBHOOK_KIND } from '../webhooks/webhook.entity.js';

/** The webhooks an overview counts: those of email and SMS events (inbound-route targets are the routes'). */
const COUNTED_KINDS = [WEBHOOK_KIND.email, WEBHOOK_KIND.sms];

/**
 * The overview's reads, each bounded: existence checks stop at the first row, and the waiting
 * emails are counted among the latest `cap` of a time window only (an account's emails have no
 * index by status: one would cost every status change its HOT update, bench:drain). `domains`:
 * the domains a limited caller reaches, or null for the whole account.
 */
export class OverviewRepository {
  constructor(private readonly em: EntityManager) {}

  async domains(accountId: string, domains: readonly string[] | null): Promise<{ added: boolean; verified: boolean }> {
    const row = await sqlRow<{ added: boolean; verified: boolean }>(
      this.em,
      `select exists (select 1 from domains where account_id = $1 and ($2::text[] is null or id = any($2::text[]))) as added,
              exists (select 1 from domains where account_id = $1 and ($2::text[] is null or id = any($2::text[])) and is_verified) as verified`,
      [accountId, domains ? textArray(domains) : null],
    );
    return row ?? { added: false, verified: false };
  }

  async hasToken(accountId: string): Promise<boolean> {
    return (await sqlRow<{ any: boolean }>(this.em, 'select exists (select 1 from api_tokens where account_id = $1) as any', [accountId]))?.any ?? false;
  }

  async hasSent(accountId: string, domains: readonly string[] | null): Promise<boolean> {
    const row = await sqlRow<{ any: boolean }>(
      this.em,
      'select exists (select 1 from messages where account_id = $1 and ($2::text[] is null or domain_id = any($2::text[]))) as any',
      [accountId, domains ? textArray(domains) : null],
    );
    return row?.any ?? false;
  }

  async waiting(accountId: string, domains: readonly string[] | null, since: Date, cap: number): Promise<{ count: number; more: boolean }> {
    const row = await sqlRow<{ count: number; seen: number }>(
      this.em,
      `select count(*) filter (where status = any($4::text[]))::int as count, count(*)::int as seen
         from (select status from emails
                where account_id = $1 and created_at >= $2::timestamptz and ($3::text[] is null or domain_id = any($3::text[]))
                order by created_at desc limit $5) latest`,
      [accountId, since.toISOString(), domains ? textArray(domains) : null, textArray(PENDING_EMAIL), cap],
    );
    return { count: row?.count ?? 0, more: (row?.seen ?? 0) >= cap };
  }

  async hasWebhook(accountId: string, domains: readonly string[] | null): Promise<boolean> {
    const row = await sqlRow<{ any: boolean }>(
      this.em,
      `select exists (select 1 from webhooks
        where account_id = $1 and kind = any($3::text[]) and ($2::text[] is null or domain_id = any($2::text[]))) as any`,
      [accountId, domains ? textArray(domains) : null, textArray(COUNTED_KINDS)],
    );
    return row?.any ?? false;
  }

  /** The caller's webhooks paused, or with a failed delivery attempt since `since`. */
  async failingWebhooks(accountId: string, domains: readonly string[] | null, since: Date): Promise<number> {
    const row = await sqlRow<{ failing: number }>(
      this.em,
      `select count(*)::int as failing from webhooks w
        where w.account_id = $1 and w.kind = any($4::text[]) and ($2::text[] is null or w.domain_id = any($2::text[]))
          and (w.paused_reason is not null or exists (
                select 1 from webhook_attempts a
                 where a.webhook_id = w.id and a.attempted_at >= $3::timestamptz and a.delivery_id is not null and not a.success))`,
      [accountId, domains ? textArray(domains) : null, since.toISOString(), textArray(COUNTED_KINDS)],
    );
    return row?.failing ?? 0;
  }

  /** The domains a caller reaches (`domains`: its limit, or null for all), by name, at most `limit`. */
  domainChoices(accountId: string, domains: readonly string[] | null, limit: number): Promise<DomainChoiceRow[]> {
    return sqlRows<DomainChoiceRow>(
      this.em,
      `select id, name, created_at, updated_at from domains
        where account_id = $1 and ($2::text[] is null or id = any($2::text[])) order by name limit $3`,
      [accountId, domains ? textArray(domains) : null, limit],
    );
  }
}

export interface DomainChoiceRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

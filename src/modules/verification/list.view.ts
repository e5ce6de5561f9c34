import { VERIFICATION_RESULTS, type VerificationList } from '../events/verification-events.js';
import type { EmailVerificationList } from './list.entity.js';
import type { VerificationResult } from './verification.statuses.js';
import type { ResultCounts } from './verification.repository.js';

/**
 * A verification list as every surface shows it: the GraphQL and /v1 record (list.type.ts
 * declares its schema) and the `email_list.verified` event data are this one shape, built here.
 */

/** The verification lists' pager: no `last_page`/`total`, and `per_page` printed as a string (COMPAT.md). */
export interface ListPageMeta {
  current_page: number;
  from: number | null;
  per_page: string;
  to: number | null;
}

export interface ListResultsPage {
  data: { address: string; result: string | null }[];
  meta: ListPageMeta;
}

export interface ListView extends VerificationList {
  statistics: Record<VerificationResult, number>;
  emails: ListResultsPage | null;
}

export function toStatistics(counts: ResultCounts): Record<VerificationResult, number> {
  return Object.fromEntries(VERIFICATION_RESULTS.map((r) => [r, counts[r] ?? 0])) as Record<VerificationResult, number>;
}

export function toVerificationList(list: EmailVerificationList, counts: ResultCounts, emails: ListResultsPage | null = null): ListView {
  const statistics = toStatistics(counts);
  const verified = Object.values(statistics).reduce((a, b) => a + b, 0);
  return {
    id: list.id,
    name: list.name,
    total: list.total,
    verification_started: list.verification_started,
    verification_ended: list.verification_ended,
    created_at: list.created_at,
    updated_at: list.updated_at,
    status: { name: list.status, count: verified },
    source: list.source,
    statistics,
    emails,
  };
}

export function listPageMeta(args: { page: number; limit: number }, count: number): ListPageMeta {
  const from = count ? (args.page - 1) * args.limit + 1 : null;
  return { current_page: args.page, from, per_page: String(args.limit), to: from === null ? null : from + count - 1 };
}

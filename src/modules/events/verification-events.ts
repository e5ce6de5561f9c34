import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from './domain-event.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

/**
 * The payloads of `email_single.verified` and `email_list.verified` (SPEC.md "Email event data"),
 * ready for the verification module to record in the same transaction as the result it stores.
 * Verification is per account, not per domain: the events carry no domain, so every webhook of
 * the account subscribed to them receives them.
 */

/** The result values a list's `statistics` counts, as SPEC.md "Email verification" lists them. */
export const VERIFICATION_RESULTS = [
  'valid', 'catch_all', 'mailbox_full', 'role_based', 'unknown', 'syntax_error', 'typo',
  'mailbox_not_found', 'disposable', 'mailbox_blocked', 'failed',
] as const;

export interface AsyncVerification {
  id: string;
  address: string;
  status: 'queued' | 'completed' | 'failed';
  result: string | null;
  error: string | null;
}

export interface VerificationList {
  id: string;
  name: string;
  total: number;
  verification_started: Date | null;
  verification_ended: Date | null;
  created_at: Date;
  updated_at: Date;
  status: { name: string; count: number };
  source: string;
  /** Counts per result; missing ones are 0. */
  statistics: Partial<Record<(typeof VERIFICATION_RESULTS)[number], number>>;
}

/** `email_single.verified`: the async verification object itself. */
export function emailSingleVerifiedData(v: AsyncVerification): Record<string, unknown> {
  return { id: v.id, address: v.address, status: v.status, result: v.result, error: v.error };
}

/** `email_list.verified`: the list object, whose statistics also count what was not verified. */
export function emailListVerifiedData(list: VerificationList): Record<string, unknown> {
  const statistics: Record<string, number> = {};
  for (const r of VERIFICATION_RESULTS) statistics[r] = list.statistics[r] ?? 0;
  const verified = Object.values(statistics).reduce((a, b) => a + b, 0);
  statistics.not_verified = Math.max(0, list.total - verified);
  const ts = (d: Date | null) => (d ? isoTimestamp(d) : null);
  return {
    id: list.id,
    name: list.name,
    total: list.total,
    verification_started: ts(list.verification_started),
    verification_ended: ts(list.verification_ended),
    created_at: isoTimestamp(list.created_at),
    updated_at: isoTimestamp(list.updated_at),
    status: list.status,
    source: list.source,
    statistics,
  };
}

/** Records the event through `em`, so it commits or rolls back with the verification result. */
export function recordVerificationEvent(
  em: EntityManager,
  accountId: string,
  type: 'email_single.verified' | 'email_list.verified',
  data: Record<string, unknown>,
): void {
  em.create(DomainEvent, { account_id: accountId, domain_id: null, type, payload: data });
}

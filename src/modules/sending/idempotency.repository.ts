import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRow } from '../../db/sql.js';

/** How long an Idempotency-Key's first answer is given again. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** A key's claim as the acceptance statement makes it (accept.repository.ts). */
export interface IdempotencyClaim {
  account_id: string;
  key: string;
  request_hash: string;
  /** The answer the request gets: it is decided before the statement that writes the send. */
  response: unknown;
  created_at: string;
}

/**
 * The CTE `name` that takes the key of `param` (a jsonb array of one IdempotencyClaim, or empty
 * for none), with its answer,
 * and returns a row only when it did: the key was free, or its row is older than the TTL (it is
 * then taken over). A concurrent twin waits on the key's row until the first commits, then gets
 * no row. The statement's other writes are made only when the claim returned one.
 */
export function claimCte(name: string, param: string): string {
  return `${name} as (
    insert into idempotency_keys (account_id, key, request_hash, response, created_at)
    select account_id, key, request_hash, response, created_at
      from jsonb_to_recordset(${param}) as k(account_id text, key text, request_hash text, response jsonb, created_at timestamptz)
    on conflict (account_id, key) do update
      set request_hash = excluded.request_hash, response = excluded.response, created_at = excluded.created_at
      where idempotency_keys.created_at < excluded.created_at - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
    returning 1 as claimed)`;
}

/** The `Idempotency-Key` rows (entity IdempotencyKey): read back, purged. */
export class IdempotencyRepository {
  constructor(private readonly em: EntityManager) {}

  /** The hash of the request that took the key, and the answer it got. */
  async prior<R>(accountId: string, key: string): Promise<{ request_hash: string; response: R } | null> {
    return sqlRow<{ request_hash: string; response: R }>(
      this.em,
      'select request_hash, response from idempotency_keys where account_id = $1 and key = $2',
      [accountId, key],
    );
  }

  /** Hourly housekeeping: answers past their time. */
  async purgeExpired(): Promise<void> {
    await sqlCount(this.em, 'delete from idempotency_keys where created_at < now() - make_interval(hours => $1)', [IDEMPOTENCY_TTL_HOURS]);
  }
}

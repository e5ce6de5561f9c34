import type { EntityManager } from '@mikro-orm/postgresql';

/** How long an Idempotency-Key's first answer is given again. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** The `Idempotency-Key` rows (entity IdempotencyKey): claimed, answered, read back, purged. */
export class IdempotencyRepository {
  constructor(private readonly em: EntityManager) {}

  /** Forgets the key's row when it is older than `before`: the key is then free again. */
  async forgetOlder(accountId: string, key: string, before: Date): Promise<void> {
    await this.em.execute('delete from idempotency_keys where account_id = ? and key = ? and created_at < ?', [accountId, key, before]);
  }

  /** Takes the key; false when another request holds it (a concurrent twin waits here for its commit). */
  async claim(accountId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
    const inserted = await this.em.execute<{ key: string }[]>(
      `insert into idempotency_keys (account_id, key, request_hash, response, created_at) values (?, ?, ?, '{}'::jsonb, ?)
       on conflict do nothing returning key`,
      [accountId, key, requestHash, now],
    );
    return inserted.length > 0;
  }

  /** The hash of the request that took the key, and the answer it got. */
  async prior<R>(accountId: string, key: string): Promise<{ request_hash: string; response: R }> {
    const [prior] = await this.em.execute<{ request_hash: string; response: R }[]>(
      'select request_hash, response from idempotency_keys where account_id = ? and key = ?',
      [accountId, key],
    );
    return prior;
  }

  async answer(accountId: string, key: string, response: unknown): Promise<void> {
    await this.em.execute('update idempotency_keys set response = ?::jsonb where account_id = ? and key = ?', [
      JSON.stringify(response),
      accountId,
      key,
    ]);
  }

  /** Hourly housekeeping: answers past their time. */
  async purgeExpired(): Promise<void> {
    await this.em.execute(`delete from idempotency_keys where created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`);
  }
}

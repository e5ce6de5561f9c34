import type { EntityManager } from '@mikro-orm/postgresql';

export class UserRepository {
  constructor(private readonly em: EntityManager) {}

  /** Held until the transaction ends: two submits of one account's owner link make one owner. */
  async lockOwnerClaim(accountId: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtext(?))', [`owner-claim:${accountId}`]);
  }
}

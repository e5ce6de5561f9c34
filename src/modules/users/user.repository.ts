import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';

export class UserRepository {
  constructor(private readonly em: EntityManager) {}

  /** Held until the transaction ends: two submits of one account's owner link make one owner. */
  async lockOwnerClaim(accountId: string): Promise<void> {
    await sqlRows(this.em, 'select pg_advisory_xact_lock(hashtext($1))', [`owner-claim:${accountId}`]);
  }
}

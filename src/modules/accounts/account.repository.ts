import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount } from '../../db/sql.js';

export class AccountRepository {
  constructor(private readonly em: EntityManager) {}

  /** One UPDATE, so two operators adding at once both count. */
  async addCredits(id: string, credits: number): Promise<void> {
    await sqlCount(this.em, 'update accounts set verification_credits = verification_credits + $1 where id = $2', [credits, id]);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';

export class AccountRepository {
  constructor(private readonly em: EntityManager) {}

  /** One UPDATE, so two operators adding at once both count. */
  async addCredits(id: string, credits: number): Promise<void> {
    await this.em.execute('update accounts set verification_credits = verification_credits + ? where id = ?', [credits, id]);
  }
}

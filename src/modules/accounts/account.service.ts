import type { EntityManager } from '@mikro-orm/postgresql';
import { Account, type Plan } from './account.entity.js';
import { AccountRepository } from './account.repository.js';
import { errors } from '../../core/errors.js';

/**
 * What the instance operator changes on one account. No account-scoped caller here: operators see
 * all. Creating an account (with its first token and owner) is the operator module's, which sits
 * above the modules it provisions.
 */
export class AccountService {
  constructor(private readonly em: EntityManager) {}

  async get(id: string): Promise<Account> {
    const account = await this.em.findOne(Account, { id });
    if (!account) throw errors.notFound();
    return account;
  }

  async setPlan(id: string, plan: Plan): Promise<Account> {
    const account = await this.get(id);
    account.plan = plan;
    await this.em.flush();
    return account;
  }

  async addCredits(id: string, credits: number): Promise<Account> {
    const account = await this.get(id);
    await new AccountRepository(this.em).addCredits(id, credits);
    await this.em.refresh(account);
    return account;
  }
}

import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../lib/secrets.js';
import { ApiToken } from '../tokens/token.entity.js';
import { newTokenSecret } from '../tokens/token.service.js';
import { AccountUser } from '../users/user.entity.js';
import { Account, type Plan } from './account.entity.js';
import { created, recordAudit } from '../audit/record.js';
import { errors } from '../../core/errors.js';
import { SCOPES } from '../../core/scopes.js';

/** What the instance operator does to accounts. No account-scoped caller here: operators see all. */
export class AccountService {
  constructor(private readonly em: EntityManager) {}

  /**
   * A new account with its first full-scope API token (and an admin user when an email is given),
   * on the plan and with the verification credits the settings give new accounts.
   */
  async create(input: { name: string; admin_email?: string | null; secret?: string; plan: Plan; verification_credits: number }) {
    const secret = input.secret ?? newTokenSecret();
    return this.em.transactional(async (em) => {
      const account = em.create(Account, { name: input.name, plan: input.plan, verification_credits: input.verification_credits } as never);
      const token = em.create(ApiToken, {
        account,
        name: 'Admin token',
        token_hash: sha256Hex(secret),
        scopes: [...SCOPES],
        domain: null,
      } as never);
      if (input.admin_email) {
        em.create(AccountUser, { account, email: input.admin_email.toLowerCase(), role: 'admin' } as never);
      }
      // The first token is the operator's doing (operator_create_account, or the first start).
      recordAudit(em, { accountId: account.id, actor: { type: 'operator', id: null, name: 'operator', ip: null } }, 'token.created', { type: 'token', id: token.id }, created({ name: token.name, scopes: token.scopes, domain_id: null }));
      await em.flush();
      return { account, token, secret };
    });
  }

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
    // One UPDATE, so two operators adding at once both count.
    await this.em.nativeUpdate(Account, { id }, { verification_credits: raw('verification_credits + ?', [credits]) } as never);
    await this.em.refresh(account);
    return account;
  }
}

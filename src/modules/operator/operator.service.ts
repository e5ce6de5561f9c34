import type { EntityManager } from '@mikro-orm/postgresql';
import { takenIfDuplicate } from '../../db/unique.js';
import { sha256Hex } from '../../lib/secrets.js';
import { Account, type Plan } from '../accounts/account.entity.js';
import { AccountService } from '../accounts/account.service.js';
import { created, recordAudit } from '../audit/audit.record.js';
import { DomainEvent, MaintenanceWindow } from '../events/domain-event.entity.js';
import { CapturedMail } from '../mail/captured-mail.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { ApiToken } from '../tokens/token.entity.js';
import { newTokenSecret } from '../tokens/token.service.js';
import { forgetTokenHere } from '../../core/token-cache.js';
import { ADMIN_ROLE } from '../users/roles.js';
import { AccountUser } from '../users/user.entity.js';
import { errors } from '../../core/errors.js';
import { SCOPES } from '../../core/scopes.js';

export interface NewAccount {
  name: string;
  admin_email?: string | null;
  /** The first token's secret (ADMIN_TOKEN on the first start); generated when absent. */
  secret?: string;
  plan: Plan;
  verification_credits: number;
}

/**
 * What the instance operator does across accounts. It sits above the modules it provisions
 * (accounts, tokens, users, SMS numbers, events), so none of them needs to know it.
 */
export class OperatorService {
  constructor(private readonly em: EntityManager) {}

  /**
   * An account's plan changes: what its tokens may see and how fast they may call follows at once
   * in this process (its kept tokens carry the plan); the others hear the database's notice.
   */
  async setPlan(accountId: string, plan: Plan): Promise<Account> {
    const account = await new AccountService(this.em).setPlan(accountId, plan);
    forgetTokenHere({ account_id: accountId });
    return account;
  }

  /**
   * A new account with its first full-scope API token (and an admin user when an email is given),
   * on the plan and with the verification credits the settings give new accounts.
   */
  async createAccount(input: NewAccount) {
    const secret = input.secret ?? newTokenSecret();
    return this.em.transactional(async (em) => {
      const account = em.create(Account, { name: input.name, plan: input.plan, verification_credits: input.verification_credits });
      const token = em.create(ApiToken, {
        account,
        name: 'Admin token',
        token_hash: sha256Hex(secret),
        scopes: [...SCOPES],
        domain: null,
      });
      if (input.admin_email) {
        em.create(AccountUser, { account, email: input.admin_email.toLowerCase(), role: ADMIN_ROLE });
      }
      // The first token is the operator's doing (operator_create_account, or the first start).
      recordAudit(em, { accountId: account.id, actor: { type: 'operator', id: null, name: 'operator', ip: null } }, 'token.created', { type: 'token', id: token.id }, created({ name: token.name, scopes: token.scopes, domain_id: null }));
      await em.flush();
      return { account, token, secret };
    });
  }

  accounts(): Promise<Account[]> {
    return this.em.find(Account, {}, { orderBy: { created_at: 'asc' } });
  }

  /** Hands a provider-assigned number to an account; one number belongs to one account. */
  async assignSmsNumber(accountId: string, telephone_number: string): Promise<SmsNumber> {
    const account = await new AccountService(this.em).get(accountId);
    const number = this.em.create(SmsNumber, { account, telephone_number });
    // Two concurrent requests for one telephone number: the unique index decides.
    await takenIfDuplicate('telephone_number', () => this.em.flush());
    return number;
  }

  /** Opens a window and records `maintenance.start` for every account (an event of no account). */
  startMaintenance(note: string | null): Promise<MaintenanceWindow> {
    return this.em.transactional(async (em) => {
      const window = em.create(MaintenanceWindow, { note: (note ?? '').slice(0, 500) });
      em.create(DomainEvent, { type: 'maintenance.start', payload: { maintenance_id: window.id } });
      await em.flush();
      return window;
    });
  }

  endMaintenance(id: string): Promise<MaintenanceWindow> {
    return this.em.transactional(async (em) => {
      const window = await em.findOne(MaintenanceWindow, { id });
      if (!window) throw errors.notFound();
      if (window.ended_at) throw errors.invalid('id', 'The maintenance window has already ended.');
      window.ended_at = new Date();
      em.create(DomainEvent, { type: 'maintenance.end', payload: { maintenance_id: window.id } });
      await em.flush();
      return window;
    });
  }

  /** Mail kept by the capture transport, newest first. */
  capturedMail(to: string | null, limit: number): Promise<CapturedMail[]> {
    return this.em.find(CapturedMail, to ? { to } : {}, { orderBy: { created_at: 'desc' }, limit: Math.min(Math.max(limit, 1), 500) });
  }
}

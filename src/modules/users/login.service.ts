import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { hashPassword, randomSecret, sha256Hex, verifyPassword } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import { resetMail } from './invite.mail.js';
import { SessionRepository } from './session.repository.js';
import { passwordExpired, SessionService, sessionUserOf, type SessionUser } from './session.service.js';
import { checkSecondFactor } from './totp.service.js';
import { AccountUser } from './user.entity.js';
import { LoginLimiter } from './login-limiter.js';

export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const RESET_TTL_MS = 60 * 60 * 1000;

/** Checked the same way wherever a password is set (owner link, invitation, reset, change). */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `The password must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `The password may not be greater than ${PASSWORD_MAX} characters.`;
  return null;
}

/** Reset mails per address (this process): at most 5 an hour, so the form cannot flood a mailbox. */
const resetMails = new LoginLimiter(5, 60 * 60_000);

// Verified against when no user has the address, so an unknown address costs what a wrong password does.
let decoy: Promise<string> | null = null;

export type LoginOutcome =
  | { kind: 'bad-credentials' }
  | { kind: 'totp-required' }
  | { kind: 'ok'; cookie: string; csrfToken: string; user: SessionUser; passwordChangeRequired: boolean };

export interface LoginInput {
  email: string;
  password: string;
  totp?: string;
  recovery_code?: string;
}

export class LoginService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'boss'>,
  ) {}

  /**
   * Email and password, then the second factor when the user has one. The same address may be a
   * user of several accounts: the oldest whose password matches logs in.
   */
  async login(input: LoginInput): Promise<LoginOutcome> {
    const email = input.email.trim().toLowerCase();
    const users = await this.em.find(AccountUser, { email, password_hash: { $ne: null } }, { orderBy: { created_at: 'asc', id: 'asc' } });
    let user: AccountUser | null = null;
    if (!users.length) await verifyPassword(input.password, await (decoy ??= hashPassword(randomSecret())));
    for (const u of users) {
      if (await verifyPassword(input.password, u.password_hash!)) {
        user = u;
        break;
      }
    }
    if (!user) return { kind: 'bad-credentials' };
    if (user.totp_secret && !(await checkSecondFactor(this.em, this.services.config, user, input))) return { kind: 'totp-required' };
    const { cookie, csrfToken } = await new SessionService(this.em, this.services.config).open(user);
    return { kind: 'ok', cookie, csrfToken, user: sessionUserOf(user), passwordChangeRequired: passwordExpired(this.services.config, user) };
  }

  /** The current password proves it is the user; other sessions end (the one that changed it stays). */
  async changePassword(userId: string, sessionId: string, current: string, next: string): Promise<'ok' | 'bad-current' | string> {
    const user = await this.em.findOneOrFail(AccountUser, { id: userId });
    if (!user.password_hash || !(await verifyPassword(current, user.password_hash))) return 'bad-current';
    const problem = passwordProblem(next);
    if (problem) return problem;
    if (await verifyPassword(next, user.password_hash)) return 'The new password must differ from the current one.';
    const hash = await hashPassword(next);
    await this.em.transactional(async (tx) => {
      await tx.nativeUpdate(AccountUser, { id: userId }, { password_hash: hash, password_changed_at: new Date() });
      await new SessionRepository(tx).endOthers(userId, sessionId);
    });
    return 'ok';
  }

  /**
   * Mails a reset link to each user with this address (one per account); answers nothing about
   * whether there was one. Past 5 requests an hour for an address, nothing more is mailed. The link's token is stored hashed, works once, for an hour.
   */
  async requestReset(rawEmail: string): Promise<void> {
    const email = rawEmail.trim().toLowerCase();
    if (resetMails.blockedFor(email)) return;
    resetMails.fail(email);
    const { config, boss } = this.services;
    const users = await this.em.find(AccountUser, { email }, { populate: ['account'] });
    for (const user of users) {
      const token = randomSecret(32);
      await this.em.transactional(async (tx) => {
        await tx.nativeUpdate(AccountUser, { id: user.id }, { reset_hash: sha256Hex(token), reset_expires_at: new Date(Date.now() + RESET_TTL_MS) });
        const link = `${config.PUBLIC_URL}/auth/reset?token=${encodeURIComponent(token)}`;
        await enqueue(tx, boss, systemMailJob, { to: user.email, from: config.MAIL_FROM, ...resetMail(user.account.name, link) });
      });
    }
  }

  /** Sets the password a reset link allows, once; every session of the user ends. */
  async resetPassword(token: string, password: string): Promise<'ok' | 'bad-token' | string> {
    const problem = passwordProblem(password);
    if (problem) return problem;
    const hash = await hashPassword(password);
    return this.em.transactional(async (tx) => {
      const repo = new SessionRepository(tx);
      const userId = await repo.takeReset(sha256Hex(token));
      if (!userId) return 'bad-token';
      await tx.nativeUpdate(AccountUser, { id: userId }, { password_hash: hash, password_changed_at: new Date() });
      await repo.endOthers(userId, null);
      return 'ok';
    });
  }

  /** Whether a reset link's token is live (for showing its form). */
  async resetOpen(token: string): Promise<boolean> {
    return (await this.em.count(AccountUser, { reset_hash: sha256Hex(token), reset_expires_at: { $gt: new Date() } })) > 0;
  }
}

/** The hash and its date for a password being set (owner link, invitation): null when none was given. */
export async function initialPassword(password: string): Promise<Pick<AccountUser, 'password_hash' | 'password_changed_at'> | null> {
  if (!password) return null;
  return { password_hash: await hashPassword(password), password_changed_at: new Date() };
}


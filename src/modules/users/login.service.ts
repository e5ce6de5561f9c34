import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { hashPassword, randomSecret, sha256Hex } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import { resetMail } from './invite.mail.js';
import { SessionRepository } from './session.repository.js';
import { passwordExpired, SessionService, sessionUserOf, type SessionUser } from './session.service.js';
import { checkSecondFactor } from './totp.service.js';
import { AccountUser } from './user.entity.js';
import type { PasswordHashing } from '../../lib/password-hashing.js';

export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const RESET_TTL_MS = 60 * 60 * 1000;

/** Checked the same way wherever a password is set (owner link, invitation, reset, change). */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `The password must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `The password may not be greater than ${PASSWORD_MAX} characters.`;
  return null;
}

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
    /** Every scrypt of a request goes through it: at its cap, HashingBusy (the route answers 503). */
    private readonly hashing: PasswordHashing,
  ) {}

  /**
   * Email and password, then the second factor when the user has one. The same address may be a
   * user of several accounts: the oldest whose password matches logs in.
   */
  async login(input: LoginInput): Promise<LoginOutcome> {
    const email = input.email.trim().toLowerCase();
    const users = await this.em.find(AccountUser, { email, password_hash: { $ne: null } }, { orderBy: { created_at: 'asc', id: 'asc' } });
    let user: AccountUser | null = null;
    // Made once per process, outside the cap: a refusal must not leave a failed decoy behind.
    if (!users.length) await this.hashing.verify(input.password, await (decoy ??= hashPassword(randomSecret())));
    for (const u of users) {
      if (await this.hashing.verify(input.password, u.password_hash!)) {
        user = u;
        break;
      }
    }
    if (!user) return { kind: 'bad-credentials' };
    if (user.totp_secret && !(await checkSecondFactor(this.em, this.services.config, user, input))) return { kind: 'totp-required' };
    const { cookie, csrfToken } = await new SessionService(this.em, this.services.config).open(user);
    return { kind: 'ok', cookie, csrfToken, user: sessionUserOf(user), passwordChangeRequired: passwordExpired(this.services.config, user) };
  }

  /**
   * The current password proves it is the user; other sessions end (the one that changed it
   * stays): `ended` names them, for their live streams.
   */
  async changePassword(userId: string, sessionId: string, current: string, next: string): Promise<{ ended: string[] } | 'bad-current' | string> {
    const user = await this.em.findOneOrFail(AccountUser, { id: userId });
    if (!user.password_hash || !(await this.hashing.verify(current, user.password_hash))) return 'bad-current';
    const problem = passwordProblem(next);
    if (problem) return problem;
    if (await this.hashing.verify(next, user.password_hash)) return 'The new password must differ from the current one.';
    const hash = await this.hashing.hash(next);
    const ended = await this.em.transactional(async (tx) => {
      await tx.nativeUpdate(AccountUser, { id: userId }, { password_hash: hash, password_changed_at: new Date() });
      return new SessionRepository(tx).endOthers(userId, sessionId);
    });
    return { ended };
  }

  /**
   * Mails a reset link to each user with this address (one per account); answers nothing about
   * whether there was one. The routes limit how often (guards.ts). The link's token is stored
   * hashed, works once, for an hour.
   */
  async requestReset(rawEmail: string): Promise<void> {
    const email = rawEmail.trim().toLowerCase();
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

  /** Sets the password a reset link allows, once; every session of the user ends (`ended`, for their live streams). */
  async resetPassword(token: string, password: string): Promise<{ ended: string[] } | 'bad-token' | string> {
    // A made-up token costs a lookup, not a scrypt; taking it below stays the single use.
    if (!(await this.resetOpen(token))) return 'bad-token';
    const problem = passwordProblem(password);
    if (problem) return problem;
    const hash = await this.hashing.hash(password);
    return this.em.transactional(async (tx) => {
      const repo = new SessionRepository(tx);
      const userId = await repo.takeReset(sha256Hex(token));
      if (!userId) return 'bad-token' as const;
      await tx.nativeUpdate(AccountUser, { id: userId }, { password_hash: hash, password_changed_at: new Date() });
      return { ended: await repo.endOthers(userId, null) };
    });
  }

  /** Whether a reset link's token is live (for showing its form). */
  async resetOpen(token: string): Promise<boolean> {
    return (await this.em.count(AccountUser, { reset_hash: sha256Hex(token), reset_expires_at: { $gt: new Date() } })) > 0;
  }
}

/** The hash and its date for a password being set (owner link, invitation): null when none was given. */
export async function initialPassword(
  password: string,
  hashing: PasswordHashing,
): Promise<Pick<AccountUser, 'password_hash' | 'password_changed_at'> | null> {
  if (!password) return null;
  return { password_hash: await hashing.hash(password), password_changed_at: new Date() };
}


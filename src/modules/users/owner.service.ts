import type { EntityManager } from '@mikro-orm/postgresql';
import isEmail from 'validator/lib/isEmail.js';
import { signToken, verifyToken } from '../../lib/secrets.js';
import type { Config } from '../../config/index.js';
import { Account } from '../accounts/account.entity.js';
import { created, memberSubject, recordAudit } from '../audit/audit.record.js';
import { ADMIN_ROLE } from './roles.js';
import { AccountUser } from './user.entity.js';
import { UserRepository } from './user.repository.js';
import { initialPassword, passwordProblem } from './login.service.js';
import type { PasswordHashing } from '../../lib/password-hashing.js';

const PURPOSE = 'owner-claim';
const NAME_MAX = 191;
const EMAIL_MAX = 320;

export interface OwnerProfile {
  email: string;
  name: string;
  last_name: string;
  /** For the console's login: required, at least 10 characters. */
  password?: string;
}

export type OwnerFieldErrors = Partial<Record<keyof OwnerProfile, string>>;

export type ClaimOutcome =
  | { kind: 'bad-token' }
  | { kind: 'claimed' }
  | { kind: 'invalid'; errors: OwnerFieldErrors; account: Account }
  | { kind: 'ok'; user: AccountUser; account: Account };

/**
 * The link that makes a person the owner (an admin user) of an account that has none: printed
 * on the first start when ADMIN_EMAIL is not set. It names the account and is signed with
 * APP_SECRET; it works until the account has an admin, and never again after.
 */
export function ownerClaimLink(config: Pick<Config, 'PUBLIC_URL' | 'APP_SECRET'>, accountId: string): string {
  return `${config.PUBLIC_URL}/owner/claim?token=${encodeURIComponent(signToken(config.APP_SECRET, PURPOSE, { account_id: accountId }))}`;
}

export function checkOwnerProfile(p: OwnerProfile): OwnerFieldErrors {
  const errs: OwnerFieldErrors = {};
  if (!p.email) errs.email = 'The email field is required.';
  else if (p.email.length > EMAIL_MAX || !isEmail.default(p.email)) errs.email = 'The email must be a valid email address.';
  for (const field of ['name', 'last_name'] as const) {
    if (!p[field]) errs[field] = `The ${field.replace('_', ' ')} field is required.`;
    else if (p[field].length > NAME_MAX) errs[field] = `The ${field.replace('_', ' ')} may not be greater than ${NAME_MAX} characters.`;
  }
  // The owner's password is required: no one else could let them in.
  const weak = p.password ? passwordProblem(p.password) : 'The password field is required.';
  if (weak) errs.password = weak;
  return errs;
}

export class OwnerService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Pick<Config, 'APP_SECRET'>,
  ) {}

  /** The account a link names while it can still be claimed. */
  async open(token: string): Promise<'bad-token' | 'claimed' | Account> {
    const accountId = this.accountOf(token);
    if (!accountId) return 'bad-token';
    const account = await this.em.findOne(Account, { id: accountId });
    if (!account) return 'bad-token';
    return (await this.hasAdmin(this.em, accountId)) ? 'claimed' : account;
  }

  /** The person becomes the account's admin; two submits at once make one (an advisory lock). */
  async claim(token: string, profile: OwnerProfile, hashing: PasswordHashing): Promise<ClaimOutcome> {
    const accountId = this.accountOf(token);
    if (!accountId) return { kind: 'bad-token' };
    return this.em.transactional(async (tx): Promise<ClaimOutcome> => {
      await new UserRepository(tx).lockOwnerClaim(accountId);
      const account = await tx.findOne(Account, { id: accountId });
      if (!account) return { kind: 'bad-token' };
      if (await this.hasAdmin(tx, accountId)) return { kind: 'claimed' };
      const errors = checkOwnerProfile(profile);
      if (Object.keys(errors).length) return { kind: 'invalid', errors, account };
      const email = profile.email.toLowerCase();
      const password = await initialPassword(profile.password ?? '', hashing);
      const user = tx.create(AccountUser, { account, email, name: profile.name, last_name: profile.last_name, role: ADMIN_ROLE, ...password });
      recordAudit(
        tx,
        { accountId, actor: { type: 'invitee', id: user.id, name: email, ip: null } },
        'user.owner_claimed',
        memberSubject('user', user.id, []),
        created({ email, role: ADMIN_ROLE }),
      );
      await tx.flush();
      return { kind: 'ok', user, account };
    });
  }

  private accountOf(token: string): string | null {
    const claim = verifyToken<{ account_id?: unknown }>(this.config.APP_SECRET, PURPOSE, token);
    return claim && typeof claim.account_id === 'string' ? claim.account_id : null;
  }

  private async hasAdmin(em: EntityManager, accountId: string): Promise<boolean> {
    return (await em.count(AccountUser, { account: accountId, role: ADMIN_ROLE })) > 0;
  }
}

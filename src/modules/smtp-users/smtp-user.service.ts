import { randomBytes, randomInt } from 'node:crypto';
import { isUniqueViolation } from '../../db/unique.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { HashingBusy, passwordHashingOf } from '../../lib/password-hashing.js';
import { randomSecret } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { created, diff, recordAudit, recordUpdate, removed } from '../audit/audit.record.js';
import { Domain } from '../domains/domain.entity.js';
import { SmtpUser } from './smtp-user.entity.js';
import type { CreateSmtpUserArgs, SmtpUserListArgs, UpdateSmtpUserArgs } from './smtp-user.inputs.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
import { errors, msg } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `MS_` and six random lowercase alphanumerics at the domain: the shape clients of this API family show. */
export function newSmtpUsername(domainName: string): string {
  let local = '';
  for (let i = 0; i < 6; i++) local += ALPHABET[randomInt(ALPHABET.length)];
  return `MS_${local}@${domainName}`;
}

/**
 * A well-formed hash no password matches (random salt and digest, the real cost parameters), so
 * an unknown username costs the same scrypt as a known one and timing does not tell them apart.
 */
const DUMMY_HASH = ['scrypt', 1 << 15, 8, 1, randomBytes(16).toString('base64url'), randomBytes(32).toString('base64url')].join('$');

// 36^6 names per domain: a collision is rare, so a few fresh draws always suffice in practice.
const USERNAME_ATTEMPTS = 5;

const subjectOf = (u: SmtpUser) => ({ type: 'smtp_user' as const, id: u.id, domainId: u.domain.id });

export class SmtpUserService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config'>,
  ) {}

  /** Password hashes share the app's cap with console logins (lib/password-hashing.ts). */
  private get hashing() {
    return passwordHashingOf(this.services.config);
  }

  /** The path's domain: 404 when unknown or another account's, 403 for a token limited to another domain. */
  private async domainOf(auth: Actor, domainId: string): Promise<Domain> {
    const domain = await findOwned(this.em, Domain, auth, { id: domainId });
    assertDomainAccess(auth, domain.id);
    return domain;
  }

  async list(auth: Actor, args: SmtpUserListArgs): Promise<SmtpUser[]> {
    const domain = await this.domainOf(auth, args.domain_id);
    return this.em.find(SmtpUser, { ...visibleTo(auth), domain: domain.id }, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  /** A user of another domain than the path's is answered as missing. */
  async get(auth: Actor, domainId: string, id: string): Promise<SmtpUser> {
    const domain = await this.domainOf(auth, domainId);
    return findOwned(this.em, SmtpUser, auth, { id, domain: domain.id });
  }

  async create(auth: Actor, args: CreateSmtpUserArgs): Promise<{ user: SmtpUser; password: string }> {
    const domain = await this.domainOf(auth, args.domain_id);
    const name = args.name.trim();
    if (!name) throw errors.invalid('name', msg.required('name'));
    const password = randomSecret();
    const passwordHash = await this.hashing.hash(password).catch((err: unknown) => {
      throw err instanceof HashingBusy ? errors.unavailable() : err;
    });
    const user = this.em.create(SmtpUser, {
      account: this.em.getReference(Account, auth.accountId),
      domain,
      name,
      username: await this.freeUsername(domain.name),
      password_hash: passwordHash,
      enabled: args.enabled ?? true,
    });
    recordAudit(this.em, auth, 'smtp_user.created', subjectOf(user), created({ name: user.name, enabled: user.enabled, domain_id: domain.id }));
    for (let attempt = 1; ; attempt++) {
      try {
        await this.em.flush();
        return { user, password };
      } catch (err) {
        // Another request took the same name between our check and the insert: draw again.
        if (!isUniqueViolation(err) || attempt >= USERNAME_ATTEMPTS) throw err;
        user.username = await this.freeUsername(domain.name);
      }
    }
  }

  async update(auth: Actor, args: UpdateSmtpUserArgs): Promise<SmtpUser> {
    const user = await this.get(auth, args.domain_id, args.smtp_user_id);
    const before = { name: user.name, enabled: user.enabled };
    if (args.name != null) {
      if (!args.name.trim()) throw errors.invalid('name', msg.required('name'));
      user.name = args.name.trim();
    }
    if (args.enabled != null) user.enabled = args.enabled;
    recordUpdate(this.em, auth, 'smtp_user.updated', subjectOf(user), diff(before, { name: user.name, enabled: user.enabled }));
    await this.em.flush();
    return user;
  }

  async remove(auth: Actor, domainId: string, id: string): Promise<boolean> {
    const user = await this.get(auth, domainId, id);
    recordAudit(this.em, auth, 'smtp_user.deleted', subjectOf(user), removed({ name: user.name, username: user.username }));
    await this.em.remove(user).flush();
    return true;
  }

  /**
   * For the SMTP relay: the SMTP session has no API token, so there is no Actor to scope by; the
   * username (globally unique) and its password are the credential. Returns null for an unknown
   * username, a wrong password or a disabled user, without saying which. The check runs under the
   * app's hashing cap: HashingBusy when it is full.
   */
  async authenticate(username: string, password: string): Promise<SmtpUser | null> {
    const user = await this.em.findOne(SmtpUser, { username }, { populate: ['domain'] });
    if (!user) {
      await this.hashing.verify(password, DUMMY_HASH);
      return null;
    }
    if (!(await this.hashing.verify(password, user.password_hash)) || !user.enabled) return null;
    user.accessed_at = new Date();
    await this.em.flush();
    return user;
  }

  private async freeUsername(domainName: string): Promise<string> {
    for (let i = 0; i < USERNAME_ATTEMPTS; i++) {
      const candidate = newSmtpUsername(domainName);
      if ((await this.em.count(SmtpUser, { username: candidate })) === 0) return candidate;
    }
    throw new Error('could not draw a free SMTP username');
  }
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import { signToken, verifyToken } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { accessOf, created, memberSubject, recordAudit } from '../audit/audit.record.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import { assertCovers, assertVisible, reachableBy, resolveAccess } from './access.js';
import { inviteMail } from './invite.mail.js';
import { initialPassword } from './login.service.js';
import type { PasswordHashing } from '../../lib/password-hashing.js';
import { AccountUser, Invite } from './user.entity.js';
import type { InviteListArgs, InviteUserArgs } from './user.inputs.js';
import { isUniqueViolation, takenIfDuplicate } from '../../db/unique.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

const PURPOSE = 'invite';

interface InviteLink {
  id: string;
  /** When the link stops working (ms); null for a link mailed before links carried one. */
  expiresAt: number | null;
  ttlMs: number;
}

/**
 * Whether a link no longer works: past its own expiry, or (a link without one) INVITE_TTL_HOURS
 * after its invite was made, once the invite is known.
 */
function linkExpired(link: InviteLink, invite: Pick<Invite, 'created_at'> | null): boolean {
  if (link.expiresAt !== null) return link.expiresAt <= Date.now();
  return invite !== null && new Date(invite.created_at).getTime() + link.ttlMs <= Date.now();
}

export type AcceptOutcome =
  | { kind: 'bad-token' }
  | { kind: 'gone' }
  | { kind: 'ok'; user: AccountUser; accountName: string };

export class InviteService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'boss'>,
  ) {}

  list(auth: Actor, args: InviteListArgs): Promise<Invite[]> {
    return this.em.find(Invite, reachableBy(auth), { orderBy: { created_at: 'asc', id: 'asc' }, limit: args.limit, offset: offsetOf(args) });
  }

  /** The same page with the full pager's meta (GET /v1/invites). */
  async page(auth: Actor, args: InviteListArgs): Promise<Page<Invite>> {
    const [rows, total] = await this.em.findAndCount(Invite, reachableBy(auth), {
      orderBy: { created_at: 'asc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  async get(auth: Actor, id: string): Promise<Invite> {
    const invite = await findOwned(this.em, Invite, auth, { id });
    assertVisible(auth, invite.domain_ids);
    return invite;
  }

  async create(auth: Actor, args: InviteUserArgs): Promise<Invite> {
    // Addresses are compared case-insensitively, so they are kept in lower case.
    const email = args.email.trim().toLowerCase();
    const bag = new FieldErrorBag();
    if (await this.emailTaken(auth.accountId, email)) bag.add('email', msg.taken('email'));
    const access = await resolveAccess(this.em, auth, args, bag);
    // Two invitations of the same address at once: the unique index decides.
    return takenIfDuplicate('email', () =>
      this.em.transactional(async (tx) => {
        const invite = tx.create(Invite, { account: tx.getReference(Account, auth.accountId), email, ...access });
        recordAudit(tx, auth, 'user.invited', memberSubject('invite', invite.id, access.domain_ids), created({ email, ...accessOf(access) }));
        await tx.flush();
        await this.sendMail(tx, invite);
        return invite;
      }),
    );
  }

  async resend(auth: Actor, id: string): Promise<Invite> {
    const invite = await this.get(auth, id);
    assertCovers(auth, invite);
    return this.em.transactional(async (tx) => {
      const row = await tx.findOne(Invite, { id: invite.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) throw errors.notFound();
      row.resends += 1;
      await tx.flush();
      await this.sendMail(tx, row);
      return row;
    });
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const invite = await this.get(auth, id);
    assertCovers(auth, invite);
    await this.em.nativeDelete(Invite, { id: invite.id, account: auth.accountId });
    return true;
  }

  /**
   * The invitee, identified by the signed link rather than an API token, joins the account. An
   * expired link answers as a made-up one does (test/users/invite-expiry.test.ts).
   */
  async accept(token: string, profile: { name: string; last_name: string; password?: string }, hashing: PasswordHashing): Promise<AcceptOutcome> {
    const link = this.linkOf(token);
    if (!link || linkExpired(link, null)) return { kind: 'bad-token' };
    // Hashed before the transaction: scrypt takes tens of milliseconds, not worth holding the lock for.
    const password = await initialPassword(profile.password ?? '', hashing);
    try {
      return await this.em.transactional(async (tx): Promise<AcceptOutcome> => {
        // The row lock makes a double submit wait, then find the invite gone.
        const invite = await tx.findOne(Invite, { id: link.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['account'] });
        if (!invite) return { kind: 'gone' };
        if (linkExpired(link, invite)) return { kind: 'bad-token' };
        const user = tx.create(AccountUser, {
          account: invite.account,
          email: invite.email,
          name: profile.name,
          last_name: profile.last_name,
          role: invite.role,
          permissions: invite.permissions,
          domain_ids: invite.domain_ids,
          template_ids: invite.template_ids,
          requires_periodic_password_change: invite.requires_periodic_password_change,
          ...password,
        });
        tx.remove(invite);
        recordAudit(
          tx,
          { accountId: invite.account.id, actor: { type: 'invitee', id: user.id, name: invite.email, ip: null } },
          'user.invite_accepted',
          memberSubject('user', user.id, invite.domain_ids),
          created({ invite_id: invite.id, email: invite.email, role: invite.role }),
        );
        await tx.flush();
        return { kind: 'ok', user, accountName: invite.account.name };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { kind: 'gone' };
      throw err;
    }
  }

  /** Whether the token still names a pending invite (for showing the form), or why not. */
  async pending(token: string): Promise<'bad-token' | 'gone' | 'expired' | Invite> {
    const link = this.linkOf(token);
    if (!link) return 'bad-token';
    if (linkExpired(link, null)) return 'expired';
    const invite = await this.em.findOne(Invite, { id: link.id }, { populate: ['account'] });
    if (!invite) return 'gone';
    return linkExpired(link, invite) ? 'expired' : invite;
  }

  /** The invite a link names and when it stops working; links mailed before links expired carry no `exp`. */
  private linkOf(token: string): InviteLink | null {
    const payload = verifyToken<{ id?: unknown; exp?: unknown }>(this.services.config.APP_SECRET, PURPOSE, token);
    if (!payload || typeof payload.id !== 'string') return null;
    const ttlMs = this.services.config.INVITE_TTL_HOURS * 3_600_000;
    return { id: payload.id, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null, ttlMs };
  }

  private async emailTaken(accountId: string, email: string): Promise<boolean> {
    if ((await this.em.count(AccountUser, { account: accountId, email })) > 0) return true;
    return (await this.em.count(Invite, { account: accountId, email })) > 0;
  }

  private async sendMail(tx: EntityManager, invite: Invite): Promise<void> {
    const { config, boss } = this.services;
    const account = await tx.findOneOrFail(Account, { id: invite.account.id });
    // Each mail's link works INVITE_TTL_HOURS from now: a resend gives a fresh one.
    const exp = Math.ceil((Date.now() + config.INVITE_TTL_HOURS * 3_600_000) / 1000);
    const link = `${config.PUBLIC_URL}/invites/accept?token=${encodeURIComponent(signToken(config.APP_SECRET, PURPOSE, { id: invite.id, exp }))}`;
    await enqueue(tx, boss, systemMailJob, { to: invite.email, from: config.MAIL_FROM, ...inviteMail(account.name, link), account_id: account.id });
  }
}

import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import { signToken, verifyToken } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { accessOf, created, memberSubject, recordAudit } from '../audit/record.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import { assertConfined, assertVisible, reachableBy, resolveAccess } from './access.js';
import { inviteMail } from './invite.mail.js';
import { initialPassword } from './login.service.js';
import { AccountUser, Invite } from './user.entity.js';
import type { InviteListArgs, InviteUserArgs } from './user.inputs.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

const PURPOSE = 'invite';

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
    assertConfined(auth, invite.domain_ids);
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
    assertConfined(auth, invite.domain_ids);
    await this.em.nativeDelete(Invite, { id: invite.id, account: auth.accountId });
    return true;
  }

  /** The invitee, identified by the signed link rather than an API token, joins the account. */
  async accept(token: string, profile: { name: string; last_name: string; password?: string }): Promise<AcceptOutcome> {
    const payload = verifyToken<{ id?: unknown }>(this.services.config.APP_SECRET, PURPOSE, token);
    if (!payload || typeof payload.id !== 'string') return { kind: 'bad-token' };
    const inviteId = payload.id;
    // Hashed before the transaction: scrypt takes tens of milliseconds, not worth holding the lock for.
    const password = await initialPassword(profile.password ?? '');
    try {
      return await this.em.transactional(async (tx): Promise<AcceptOutcome> => {
        // The row lock makes a double submit wait, then find the invite gone.
        const invite = await tx.findOne(Invite, { id: inviteId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['account'] });
        if (!invite) return { kind: 'gone' };
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
      if (err instanceof UniqueConstraintViolationException) return { kind: 'gone' };
      throw err;
    }
  }

  /** Whether the token still names a pending invite (for showing the form). */
  async pending(token: string): Promise<'bad-token' | 'gone' | Invite> {
    const payload = verifyToken<{ id?: unknown }>(this.services.config.APP_SECRET, PURPOSE, token);
    if (!payload || typeof payload.id !== 'string') return 'bad-token';
    return (await this.em.findOne(Invite, { id: payload.id }, { populate: ['account'] })) ?? 'gone';
  }

  private async emailTaken(accountId: string, email: string): Promise<boolean> {
    if ((await this.em.count(AccountUser, { account: accountId, email })) > 0) return true;
    return (await this.em.count(Invite, { account: accountId, email })) > 0;
  }

  private async sendMail(tx: EntityManager, invite: Invite): Promise<void> {
    const { config, boss } = this.services;
    const account = await tx.findOneOrFail(Account, { id: invite.account.id });
    const link = `${config.PUBLIC_URL}/invites/accept?token=${encodeURIComponent(signToken(config.APP_SECRET, PURPOSE, { id: invite.id }))}`;
    await enqueue(tx, boss, systemMailJob, { to: invite.email, from: config.MAIL_FROM, ...inviteMail(account.name, link) });
  }
}

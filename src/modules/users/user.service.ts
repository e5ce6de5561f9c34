import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { accessOf, diff, memberSubject, recordAudit, recordUpdate, removed } from '../audit/audit.record.js';
import { Domain } from '../domains/domain.entity.js';
import { Template } from '../templates/template.entity.js';
import { assertCovers, assertVisible, reachableBy, resolveAccess } from './access.js';
import { AccountUser } from './user.entity.js';
import type { UpdateUserArgs, UserListArgs } from './user.inputs.js';
import { ADMIN_ROLE } from './roles.js';
import { type Actor } from '../../core/actor.js';
import { errors, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

export const LAST_ADMIN = 'The account must keep at least one admin.';

export class UserService {
  constructor(private readonly em: EntityManager) {}

  list(auth: Actor, args: UserListArgs): Promise<AccountUser[]> {
    return this.em.find(AccountUser, reachableBy(auth), {
      orderBy: { created_at: 'asc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  async get(auth: Actor, id: string): Promise<AccountUser> {
    const user = await findOwned(this.em, AccountUser, auth, { id });
    assertVisible(auth, user.domain_ids);
    return user;
  }

  /**
   * The account's domains and templates the given users are limited to, by id, in one query
   * each. Ids are unique across tables, so one map holds both kinds; toUser tells them apart.
   * Only those the caller can see: a domain-limited token sees a user's access as it applies to
   * its domain, never the names of other domains or their templates.
   */
  async refsOf(auth: Actor, users: AccountUser[]): Promise<Map<string, Domain | Template>> {
    const domainIds = [...new Set(users.flatMap((u) => u.domain_ids))].filter(
      (id) => (!auth.domainId || id === auth.domainId) && (!auth.domainIds?.length || auth.domainIds.includes(id)),
    );
    const templateIds = [...new Set(users.flatMap((u) => u.template_ids))];
    const domains = domainIds.length ? await this.em.find(Domain, { id: { $in: domainIds }, account: auth.accountId }) : [];
    const templates = templateIds.length ? await this.em.find(Template, { id: { $in: templateIds }, ...visibleTo(auth) }) : [];
    return new Map<string, Domain | Template>([...domains, ...templates].map((r) => [r.id, r]));
  }

  async update(auth: Actor, args: UpdateUserArgs): Promise<AccountUser> {
    const user = await this.get(auth, args.user_id);
    assertCovers(auth, user);
    const access = await resolveAccess(this.em, auth, args, new FieldErrorBag(), user);
    // A rule laid on oneself is someone else's to lift.
    if (user.id === auth.userId && user.requires_periodic_password_change && !access.requires_periodic_password_change) {
      throw errors.forbidden('You cannot lift the periodic password change required of you; another member must.');
    }
    return this.em.transactional(async (tx) => {
      if (user.role === ADMIN_ROLE && access.role !== ADMIN_ROLE) await this.assertOtherAdmin(tx, auth, user, 'role');
      const row = await tx.findOneOrFail(AccountUser, { id: user.id });
      const before = accessOf(row);
      Object.assign(row, access);
      recordUpdate(tx, auth, 'user.updated', memberSubject('user', row.id, row.domain_ids), diff(before, accessOf(row)));
      await tx.flush();
      return row;
    });
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const user = await this.get(auth, id);
    assertCovers(auth, user);
    await this.em.transactional(async (tx) => {
      if (user.role === ADMIN_ROLE) await this.assertOtherAdmin(tx, auth, user, 'user_id');
      await tx.nativeDelete(AccountUser, { id: user.id, account: auth.accountId });
      recordAudit(tx, auth, 'user.deleted', memberSubject('user', user.id, user.domain_ids), removed({ email: user.email, role: user.role }));
    });
    return true;
  }

  /**
   * Locks the account's admins first, so two requests that each remove a different one of the
   * last two admins cannot both succeed.
   */
  private async assertOtherAdmin(tx: EntityManager, auth: Actor, user: AccountUser, field: string): Promise<void> {
    const admins = await tx.find(
      AccountUser,
      { account: auth.accountId, role: ADMIN_ROLE },
      { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] },
    );
    if (!admins.some((a) => a.id !== user.id)) throw errors.invalid(field, LAST_ADMIN);
  }
}

import { QueryOrder, type FilterObject } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import { SenderIdentity } from './identity.entity.js';
import type { CreateIdentityArgs, IdentityChangeArgs, IdentityListArgs, IdentityOrderBy } from './identity.inputs.js';
import { confirmationMail } from './identity.mail.js';
import { assertDomainAccess, type Actor } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

export const ALREADY_VERIFIED = 'The sender identity is already verified.';
export const EMAIL_OFF_DOMAIN = 'The email must be an address at the selected domain or one of its subdomains.';

/** Which identity a call addresses: by id or by its current address. */
export type IdentityKey = { id: string } | { email: string };

/** Literal text for ILIKE: addresses may contain `_` and `%`. */
function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function atDomain(email: string, domain: string): boolean {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const name = domain.toLowerCase();
  return host === name || host.endsWith(`.${name}`);
}

/** Laravel treats an empty string as absent; so do the optional text fields here. */
const blankToNull = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());

export class IdentityService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'boss' | 'config'>,
  ) {}

  async list(auth: Actor, args: IdentityListArgs): Promise<SenderIdentity[]> {
    const where = visibleTo(auth) as FilterObject<SenderIdentity>;
    if (args.domain_id) {
      const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) throw errors.notFound();
      assertDomainAccess(auth, domain.id);
      where.domain = domain.id;
    }
    if (args.query) where.email = { $ilike: `%${likeLiteral(args.query)}%` };
    const dir = args.order === 'asc' ? QueryOrder.ASC_NULLS_LAST : QueryOrder.DESC_NULLS_LAST;
    // Validation took only IDENTITY_ORDER_BY's names.
    const by = (args.order_by ?? 'created_at') as IdentityOrderBy;
    return this.em.find(SenderIdentity, where, {
      populate: ['domain'],
      orderBy: { [by]: dir, id: dir },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  get(auth: Actor, key: IdentityKey, em: EntityManager = this.em): Promise<SenderIdentity> {
    const where = 'id' in key ? { id: key.id } : { email: { $ilike: likeLiteral(key.email) } };
    return findOwned(em, SenderIdentity, auth, where, ['domain']);
  }

  async create(auth: Actor, args: CreateIdentityArgs): Promise<SenderIdentity> {
    const email = args.email.trim();
    // Two concurrent creates of one address: the loser gets the same 422 as a sequential duplicate.
    return takenIfDuplicate('email', () =>
      this.em.transactional(async (em) => {
        const bag = new FieldErrorBag();
        const domain = await em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
        if (!domain) bag.add('domain_id', msg.in('domain_id'));
        else {
          assertDomainAccess(auth, domain.id);
          if (!atDomain(email, domain.name)) bag.add('email', EMAIL_OFF_DOMAIN);
        }
        if (await this.emailTaken(em, auth, email)) bag.add('email', msg.taken('email'));
        if (blankToNull(args.reply_to_name) && !blankToNull(args.reply_to_email)) {
          bag.add('reply_to_email', msg.requiredWith('reply_to_email', 'reply_to_name'));
        }
        bag.throwIfAny();
        const identity = em.create(SenderIdentity, {
          account: em.getReference(Account, auth.accountId),
          domain: domain!,
          email,
          name: blankToNull(args.name) ?? email.slice(0, email.lastIndexOf('@')),
          reply_to_email: blankToNull(args.reply_to_email),
          reply_to_name: blankToNull(args.reply_to_name),
          add_note: args.add_note ?? false,
          personal_note: blankToNull(args.personal_note),
        });
        await em.flush();
        await this.sendConfirmation(em, identity);
        return identity;
      }),
    );
  }

  async update(auth: Actor, key: IdentityKey, args: IdentityChangeArgs): Promise<SenderIdentity> {
    const identity = await this.get(auth, key);
    if (args.name != null && !args.name.trim()) throw errors.invalid('name', msg.required('name'));
    const replyToName = args.reply_to_name !== undefined ? blankToNull(args.reply_to_name) : identity.reply_to_name;
    const replyToEmail = args.reply_to_email !== undefined ? blankToNull(args.reply_to_email) : identity.reply_to_email;
    // Judged on the result, so a partial update cannot leave a reply-to name without an address.
    if (replyToName && !replyToEmail) {
      throw errors.invalid('reply_to_email', msg.requiredWith('reply_to_email', 'reply_to_name'));
    }
    if (args.name != null) identity.name = args.name.trim();
    identity.reply_to_name = replyToName;
    identity.reply_to_email = replyToEmail;
    if (args.add_note != null) identity.add_note = args.add_note;
    if (args.personal_note !== undefined) identity.personal_note = blankToNull(args.personal_note);
    await this.em.flush();
    return identity;
  }

  async remove(auth: Actor, key: IdentityKey): Promise<boolean> {
    const identity = await this.get(auth, key);
    await this.em.remove(identity).flush();
    return true;
  }

  async resend(auth: Actor, key: IdentityKey): Promise<SenderIdentity> {
    return this.em.transactional(async (em) => {
      const identity = await this.get(auth, key, em);
      if (identity.is_verified) throw errors.invalid('email', ALREADY_VERIFIED);
      identity.resends += 1;
      await em.flush();
      await this.sendConfirmation(em, identity);
      return identity;
    });
  }

  private async emailTaken(em: EntityManager, auth: Actor, email: string): Promise<boolean> {
    return (await em.count(SenderIdentity, { account: auth.accountId, email: { $ilike: likeLiteral(email) } })) > 0;
  }

  /** Enqueued on `em`'s open transaction: the mail exists if and only if the write commits. */
  private async sendConfirmation(em: EntityManager, identity: SenderIdentity): Promise<void> {
    const { config, boss } = this.services;
    await enqueue(em, boss, systemMailJob, { ...confirmationMail(config, identity, identity.domain.name), account_id: identity.account.id, domain_id: identity.domain.id });
  }
}

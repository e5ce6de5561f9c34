import type { EntityManager } from '@mikro-orm/postgresql';
import { ownedDomainId, visibleTo } from '../../db/scoped.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { Recipient } from '../recipients/recipient.entity.js';
import { RecipientRepository } from '../recipients/recipient.repository.js';
import { Suppression, type RecipientList, type SuppressionList } from './suppression.entity.js';
import { SuppressionRepository } from './suppression.repository.js';
import { holdEvent } from './suppression.events.js';
import { reasonsFor, type SuppressionReason } from './suppression.matcher.js';
import { checkPatterns, holdUntil, MANUAL_REASON, normalEmails } from './suppression.rules.js';
import { type Actor, assertDomainAccess, isDomainLimited } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

interface ListArgs { domain_id?: string | null; page: number; limit: number }
interface RemoveArgs { domain_id?: string | null; ids?: string[] | null; all?: boolean | null }

export class SuppressionService {
  constructor(private readonly em: EntityManager) {}

  reasonsFor(accountId: string, domainId: string, emails: string[]): Promise<Map<string, SuppressionReason>> {
    return reasonsFor(this.em, accountId, domainId, emails);
  }

  /** Newest first. A domain-limited caller sees its own domains' entries only. */
  async list(auth: Actor, list: SuppressionList, args: ListArgs): Promise<Suppression[]> {
    // Account-wide blocklist entries (no domain) are outside a domain-limited caller's reach.
    const where: Record<string, unknown> = { ...visibleTo(auth), list };
    if (args.domain_id) where.domain = await ownedDomainId(this.em, auth, args.domain_id);
    return this.em.find(Suppression, where, {
      populate: ['domain', 'recipient'],
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  async addToBlocklist(
    auth: Actor,
    args: { domain_id?: string | null; recipients?: string[] | null; patterns?: string[] | null },
  ): Promise<Suppression[]> {
    const bag = new FieldErrorBag();
    const recipients = args.recipients ?? [];
    const patterns = args.patterns ?? [];
    if (!recipients.length && !patterns.length) bag.add('recipients', msg.requiredWithout('recipients', 'patterns'));
    checkPatterns(patterns, bag);
    const domain = await this.writeDomain(auth, args.domain_id, bag);
    const wanted = [
      ...normalEmails(recipients).map((pattern) => ({ type: 'email' as const, pattern })),
      ...[...new Set(patterns)].map((pattern) => ({ type: 'pattern' as const, pattern })),
    ];
    return this.em.transactional(async (em) => {
      await new SuppressionRepository(em).lockList(auth.accountId, 'blocklist', domain?.id ?? null);
      const existing = await em.find(
        Suppression,
        { account: auth.accountId, list: 'blocklist', domain: domain?.id ?? null, pattern: { $in: wanted.map((w) => w.pattern) } },
        { populate: ['domain'] },
      );
      const have = new Map(existing.map((e) => [`${e.type}\n${e.pattern}`, e]));
      return wanted.map(
        (w) =>
          have.get(`${w.type}\n${w.pattern}`) ??
          em.create(Suppression, { account: em.getReference(Account, auth.accountId), domain, list: 'blocklist', ...w }),
      );
    });
  }

  async addRecipients(
    auth: Actor,
    list: RecipientList,
    args: { domain_id: string; recipients: string[]; on_hold_until?: string | null },
  ): Promise<Suppression[]> {
    const bag = new FieldErrorBag();
    if (!args.recipients.length) bag.add('recipients', msg.required('recipients'));
    const until = list === 'on_hold' ? holdUntil(args.on_hold_until, bag) : null;
    const domain = (await this.writeDomain(auth, args.domain_id, bag))!;
    const now = new Date();
    return this.em.transactional(async (em) => {
      await new SuppressionRepository(em).lockList(auth.accountId, list, domain.id);
      const recipients = await this.recipientsOf(em, domain, normalEmails(args.recipients));
      const existing = await em.find(
        Suppression,
        { account: auth.accountId, list, domain: domain.id, recipient: { $in: recipients.map((r) => r.id) } },
        { populate: ['recipient'] },
      );
      const byRecipient = new Map(existing.map((e) => [e.recipient!.id, e]));
      return recipients.map((recipient) => {
        let entry = byRecipient.get(recipient.id);
        // An expired hold is as good as none: adding the address again starts a new one.
        const expired = list === 'on_hold' && entry != null && entry.on_hold_until! <= now;
        if (entry && !expired) return entry;
        if (entry) entry.on_hold_until = until;
        entry ??= em.create(Suppression, { account: domain.account, domain, list, recipient, reason: MANUAL_REASON, on_hold_until: until });
        if (list === 'on_hold') holdEvent(em, 'recipient.on_hold_added', entry, recipient.email);
        return entry;
      });
    });
  }

  /** `ids` must be entries of this list for exactly this domain (or the account-wide blocklist). */
  async remove(auth: Actor, list: SuppressionList, args: RemoveArgs): Promise<boolean> {
    const bag = new FieldErrorBag();
    const ids = args.ids ?? [];
    if (!args.all && !ids.length) bag.add('ids', msg.requiredWithout('ids', 'all'));
    const domain = await this.writeDomain(auth, args.domain_id, bag, false);
    await this.em.transactional(async (em) => {
      const scope = { account: auth.accountId, list, domain: domain?.id ?? null };
      const rows = await em.find(Suppression, args.all ? scope : { ...scope, id: { $in: ids } }, { populate: ['recipient'] });
      if (!args.all) {
        const have = new Set(rows.map((r) => r.id));
        ids.forEach((id, i) => have.has(id) || bag.add(`ids.${i}`, msg.in(`ids.${i}`)));
      }
      bag.throwIfAny();
      this.assertReach(auth, domain);
      if (list === 'on_hold') for (const row of rows) holdEvent(em, 'recipient.on_hold_removed', row, row.recipient!.email);
      await em.nativeDelete(Suppression, { id: { $in: rows.map((r) => r.id) } });
    });
    return true;
  }

  /**
   * The domain a write is for: another account's or an unknown one is a 422; one beyond a
   * domain-limited token's reach, or the whole account for such a token, is a 403.
   */
  private async writeDomain(auth: Actor, id: string | null | undefined, bag: FieldErrorBag, settle = true) {
    let domain: Domain | null = null;
    if (id) {
      domain = await this.em.findOne(Domain, { id, account: auth.accountId });
      if (!domain) bag.add('domain_id', msg.in('domain_id'));
    }
    if (settle) {
      bag.throwIfAny();
      this.assertReach(auth, domain);
    }
    return domain;
  }

  private assertReach(auth: Actor, domain: Domain | null): void {
    if (domain) assertDomainAccess(auth, domain.id);
    else if (isDomainLimited(auth)) throw errors.forbidden('This caller is limited to some domains; account-wide entries are out of its reach.');
  }

  /** Finds or creates the recipient of each address; a deleted one comes back. */
  private async recipientsOf(em: EntityManager, domain: Domain, emails: string[]): Promise<Recipient[]> {
    const found = await new RecipientRepository(em).byEmails(domain.id, emails);
    const byEmail = new Map<string, Recipient>();
    for (const r of found) if (!byEmail.has(r.email.toLowerCase())) byEmail.set(r.email.toLowerCase(), r);
    return emails.map((email) => {
      const r = byEmail.get(email) ?? em.create(Recipient, { account: domain.account, domain, email });
      r.deleted_at = null;
      return r;
    });
  }
}

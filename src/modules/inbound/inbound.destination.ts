import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { domainOf, hostAndParents } from './inbound.match.js';
import { InboundRepository } from './inbound.repository.js';

/**
 * Why forwards to email are no open relay. A route can forward to an address only once the
 * account has shown that the address wants its mail:
 * - the address is on one of the account's verified domains (or a subdomain of one): the account
 *   controls that domain's DNS, so it speaks for its mailboxes; nothing to confirm;
 * - or the address's owner opened the confirmation link mailed to it when a route with that
 *   forward was saved (inbound.confirm.ts; the link is signed like a sender identity's).
 * Until then a copy for it is not sent: the message records why, and `inbound_forward.failed`
 * fires. A confirmation holds for the account (every route of it), not for one route, and is
 * asked for again (another mail) when a route naming the address is saved and the last mail is
 * an hour old, so a lost mail is not final and a route cannot be used to mail someone in a loop.
 */
@Entity({ tableName: 'inbound_forward_destinations' })
@Unique({ properties: ['account', 'email'] })
export class InboundForwardDestination extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  /** Lower case. */
  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  confirmed_at: Date | null = null;

  /** When the last confirmation mail was queued. */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  mailed_at: Date | null = null;
}

/** How a forward's address is allowed, or not yet: null for webhook forwards. */
export type Confirmation = 'domain' | 'confirmed' | 'pending';

/** Each of these addresses (lower-cased keys) and how it is allowed, for the account. */
export async function confirmationsOf(em: EntityManager, accountId: string, emails: string[]): Promise<Map<string, Confirmation>> {
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  const out = new Map<string, Confirmation>();
  if (!lowered.length) return out;
  const hosts = [...new Set(lowered.flatMap((e) => hostAndParents(domainOf(e))))];
  const repo = new InboundRepository(em);
  const verified = await repo.verifiedNamesOf(accountId, hosts);
  const clicked = await repo.confirmedOf(accountId, lowered);
  for (const email of lowered) {
    if (hostAndParents(domainOf(email)).some((h) => verified.has(h))) out.set(email, 'domain');
    else if (clicked.has(email)) out.set(email, 'confirmed');
    else out.set(email, 'pending');
  }
  return out;
}

/**
 * Records the addresses still to confirm and returns those to mail now: new ones, and those whose
 * last mail is older than REMIND_AFTER_HOURS (inbound.repository.ts). One statement, so two saves at once mail once.
 * Runs in the route's saving transaction: the rows and the mails exist only if the route does.
 */
export async function toConfirm(em: EntityManager, accountId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (!lowered.length) return [];
  return new InboundRepository(em).dueForMail(accountId, lowered);
}

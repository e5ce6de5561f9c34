import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { Recipient } from '../recipients/recipient.entity.js';

/** The five suppression lists of COMPAT.md, by their stored names. */
export const SUPPRESSION_LISTS = ['blocklist', 'hard_bounces', 'spam_complaints', 'unsubscribes', 'on_hold'] as const;
export type SuppressionList = (typeof SUPPRESSION_LISTS)[number];
/** The lists of a domain's recipients: all but the blocklist (addresses and patterns). */
export type RecipientList = Exclude<SuppressionList, 'blocklist'>;

/**
 * One entry of a suppression list. Blocklist entries are an exact address or a pattern, for one
 * domain or (domain null) the whole account; the other lists name a recipient of a domain.
 */
@Entity({ tableName: 'suppressions' })
@Index({ properties: ['account', 'list', 'created_at'] })
@Index({ properties: ['domain', 'list'] })
export class Suppression extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { nullable: true, deleteRule: 'cascade' })
  domain: Domain | null = null;

  @Property({ type: 'string', length: 20 })
  list!: SuppressionList;

  /** Blocklist only: `email` (an exact address) or `pattern` (a regular expression). */
  @Property({ type: 'string', length: 10, nullable: true })
  type: 'email' | 'pattern' | null = null;

  /** Blocklist only: the address or the expression. */
  @Property({ type: 'string', length: 1000, nullable: true })
  pattern: string | null = null;

  @ManyToOne(() => Recipient, { nullable: true, deleteRule: 'cascade' })
  recipient: Recipient | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  /** On-hold list only: when the hold ends by itself. */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  on_hold_until: Date | null = null;
}

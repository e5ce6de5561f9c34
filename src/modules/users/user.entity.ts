import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';

/** A person of an account, or an invitation to become one: who, and what they may do and reach. */
abstract class AccountMember extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'string', length: 50 })
  role!: string;

  @Property({ type: 'text[]' })
  permissions: Opt<string[]> = [];

  /** Ids of the account's domains and templates this person may access (empty = all). */
  @Property({ type: 'text[]' })
  domain_ids: Opt<string[]> = [];

  @Property({ type: 'text[]' })
  template_ids: Opt<string[]> = [];

  @Property({ type: 'boolean' })
  requires_periodic_password_change: Opt<boolean> = false;
}

@Entity({ tableName: 'account_users' })
@Unique({ properties: ['account', 'email'] })
export class AccountUser extends AccountMember {
  @Property({ type: 'string', length: 191 })
  name: Opt<string> = '';

  @Property({ type: 'string', length: 191 })
  last_name: Opt<string> = '';

  @Property({ type: 'text', nullable: true })
  avatar: string | null = null;

  @Property({ type: 'boolean' })
  two_fa: Opt<boolean> = false;
}

@Entity({ tableName: 'invites' })
@Unique({ properties: ['account', 'email'] })
export class Invite extends AccountMember {
  @Property({ type: 'integer' })
  resends: Opt<number> = 0;
}

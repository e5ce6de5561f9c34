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

  /** scrypt (lib/secrets.ts); null until set through the owner link, the invitation or a reset. */
  @Property({ type: 'text', nullable: true, hidden: true })
  password_hash: Opt<string> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  password_changed_at: Opt<Date> | null = null;

  /** The TOTP secret (base32), encrypted with APP_SECRET; set once enrolment is confirmed. */
  @Property({ type: 'text', nullable: true, hidden: true })
  totp_secret: Opt<string> | null = null;

  /** The TOTP time step of the last login by code: each code logs in once. */
  @Property({ type: 'bigint', nullable: true, hidden: true })
  totp_last_step: Opt<string> | null = null;

  /** A secret being enrolled, until a code from it is confirmed. */
  @Property({ type: 'text', nullable: true, hidden: true })
  totp_pending: Opt<string> | null = null;

  /** sha256 of each unused recovery code; one is removed as it is used. */
  @Property({ type: 'text[]', hidden: true })
  recovery_codes: Opt<string[]> = [];

  /** sha256 of the password reset link's token, while one is out; single use. */
  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  reset_hash: Opt<string> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  reset_expires_at: Opt<Date> | null = null;
}

@Entity({ tableName: 'invites' })
@Unique({ properties: ['account', 'email'] })
export class Invite extends AccountMember {
  @Property({ type: 'integer' })
  resends: Opt<number> = 0;
}

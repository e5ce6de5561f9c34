import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

@Entity({ tableName: 'smtp_users' })
export class SmtpUser extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  @Property({ type: 'string', length: 50 })
  name!: string;

  @Property({ type: 'string', length: 320, unique: true })
  username!: string;

  /** scrypt hash (lib/secrets.ts); the password is shown once at creation. */
  @Property({ type: 'text' })
  password_hash!: string;

  @Property({ type: 'boolean' })
  enabled: Opt<boolean> = true;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  accessed_at: Date | null = null;
}

import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

@Entity({ tableName: 'sender_identities' })
@Unique({ properties: ['account', 'email'] })
export class SenderIdentity extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'string', length: 191 })
  name!: string;

  @Property({ type: 'string', length: 320, nullable: true })
  reply_to_email: string | null = null;

  @Property({ type: 'string', length: 191, nullable: true })
  reply_to_name: string | null = null;

  @Property({ type: 'boolean' })
  is_verified: Opt<boolean> = false;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  verified_at: Date | null = null;

  @Property({ type: 'integer' })
  resends: Opt<number> = 0;

  @Property({ type: 'boolean' })
  add_note: Opt<boolean> = false;

  @Property({ type: 'string', length: 250, nullable: true })
  personal_note: string | null = null;
}

import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

/** An address the account has sent to from a domain; sending creates these. */
@Entity({ tableName: 'recipients' })
@Unique({ properties: ['domain', 'email'] })
@Index({ properties: ['account', 'created_at'] })
export class Recipient extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { deleteRule: 'cascade' })
  domain!: Domain;

  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  deleted_at: Date | null = null;
}

import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';

/** A phone number the provider assigned; operators hand numbers to accounts. */
@Entity({ tableName: 'sms_numbers' })
export class SmsNumber extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @Property({ type: 'string', length: 32, unique: true })
  telephone_number!: string;

  @Property({ type: 'boolean' })
  paused: Opt<boolean> = false;
}

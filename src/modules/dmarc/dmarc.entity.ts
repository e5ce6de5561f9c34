import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

/**
 * DMARC monitoring of one sending domain: the record the customer means to publish, and what
 * DNS showed at the last check (`_dmarc.<domain>` TXT and the domain's `v=spf1` TXT).
 */
@Entity({ tableName: 'dmarc_monitors' })
@Index({ properties: ['account', 'created_at'] })
export class DmarcMonitor extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** One monitor per domain. */
  @ManyToOne(() => Domain, { deleteRule: 'cascade', unique: true })
  domain!: Domain;

  @Property({ type: 'string', length: 1000 })
  wanted_dmarc_record!: string;

  /** The published record as found, '' when none. */
  @Property({ type: 'text' })
  dmarc_record: string = '';

  @Property({ type: 'boolean' })
  dmarc_valid: boolean = false;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  @Index()
  dmarc_record_checked_at: Date | null = null;

  @Property({ type: 'text', nullable: true })
  spf_record: string | null = null;

  /** not_found until checked; see check.ts for the values. */
  @Property({ type: 'string', length: 20 })
  spf_status: string = 'not_found';
}

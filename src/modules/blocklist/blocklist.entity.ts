import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { newId } from '../../lib/ids.js';
import { Account } from '../accounts/account.entity.js';

export type MonitorType = 'domain' | 'ip';

/** Where a new listing is announced. A webhook forward signs with its own secret, sealed with APP_SECRET. */
export interface MonitorForward {
  id: string;
  type: 'email' | 'webhook';
  value: string;
  secret_enc?: string | null;
}

/**
 * A monitored domain or IP. A CIDR block is one parent (`cidr` set, `address` its first IP)
 * with one child per IP; the children carry the checks and hits, the parent sums them up.
 */
@Entity({ tableName: 'blocklist_monitors' })
@Index({ properties: ['account', 'created_at'] })
@Index({ properties: ['account', 'address'] })
@Index({ properties: ['next_check'] })
export class BlocklistMonitor extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => BlocklistMonitor, { nullable: true, deleteRule: 'cascade' })
  @Index()
  parent: BlocklistMonitor | null = null;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'string', length: 255 })
  address!: string;

  /** The normalized block (e.g. `192.0.2.0/30`) of a parent; null for a single address or a child. */
  @Property({ type: 'string', length: 64, nullable: true })
  cidr: string | null = null;

  @Property({ type: 'string', length: 10 })
  type!: MonitorType;

  @Property({ type: 'boolean' })
  in_progress: Opt<boolean> = true;

  @Property({ type: 'boolean' })
  notify: Opt<boolean> = false;

  @Property({ type: 'string', length: 255, nullable: true })
  notify_email: string | null = null;

  @Property({ type: 'string', length: 500, nullable: true })
  notify_address: string | null = null;

  @Property({ type: 'json' })
  forwards: Opt<MonitorForward[]> = [];

  @Property({ type: 'boolean' })
  blocklisted: Opt<boolean> = false;

  @Property({ type: 'integer' })
  last_checks_count: Opt<number> = 0;

  @Property({ type: 'integer' })
  children_count: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  last_check: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  next_check: Date | null = null;
}

/** One blocklist that listed a monitored address; a later clean check closes it (`delisted_at`). */
@Entity({ tableName: 'blocklist_hits' })
@Index({ properties: ['monitor', 'delisted_at'] })
export class BlocklistHit {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  @ManyToOne(() => BlocklistMonitor, { deleteRule: 'cascade' })
  monitor!: BlocklistMonitor;

  @Property({ type: 'string', length: 253 })
  blocklist_host!: string;

  @Property({ type: 'string', length: 255 })
  address!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  listed_at!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  delisted_at: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  last_checked_at!: Date;
}

import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { newId } from '../../lib/ids.js';
import type { AuthResult } from './aggregate.js';
import type { ReportChannel } from './dmarc.constants.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

/** A monitor's report key: 16 random characters, enough that report addresses cannot be guessed. */
export const newReportKey = (): string => newId(16);

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
  dmarc_record: Opt<string> = '';

  @Property({ type: 'boolean' })
  dmarc_valid: Opt<boolean> = false;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  @Index()
  dmarc_record_checked_at: Date | null = null;

  @Property({ type: 'text', nullable: true })
  spf_record: string | null = null;

  /** not_found until checked; see dmarc.check.ts for the values. */
  @Property({ type: 'string', length: 20 })
  spf_status: Opt<string> = 'not_found';

  /** Names the monitor's report address, `dmarc+<key>@<DMARC_REPORT_DOMAIN>` (report.address.ts). */
  @Property({ type: 'string', length: 32, unique: true })
  report_key: Opt<string> = newReportKey();
}

/**
 * One aggregate report as received: who sent it, for which period, under which published policy.
 * A reporter that sends the same report twice (same organisation and report_id) is stored once.
 */
@Entity({ tableName: 'dmarc_reports' })
@Unique({ properties: ['monitor', 'org_name', 'report_id'] })
export class DmarcReport extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => DmarcMonitor, { deleteRule: 'cascade' })
  monitor!: DmarcMonitor;

  @Property({ type: 'text' })
  org_name!: string;

  @Property({ type: 'text', nullable: true })
  org_email: string | null = null;

  @Property({ type: 'text' })
  report_id!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  date_begin!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  date_end!: Date;

  /** policy_published: domain, adkim, aspf, p, sp, pct. */
  @Property({ type: 'json' })
  policy!: Record<string, unknown>;

  @Property({ type: 'integer' })
  records: Opt<number> = 0;

  @Property({ type: 'bigint', columnType: 'bigint' })
  total_volume: Opt<number> = 0;

  @Property({ type: 'string', length: 10 })
  received_via!: ReportChannel;
}

/**
 * One `<record>` of a report: a source IP and what receivers saw of its mail. The report's
 * period and organisation are copied here so the reads filter one table.
 */
@Entity({ tableName: 'dmarc_report_rows' })
@Index({ properties: ['monitor', 'date_begin'] })
@Index({ properties: ['monitor', 'source_ip', 'date_begin'] })
export class DmarcReportRow extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => DmarcMonitor, { deleteRule: 'cascade' })
  monitor!: DmarcMonitor;

  @ManyToOne(() => DmarcReport, { deleteRule: 'cascade' })
  @Index()
  report!: DmarcReport;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  date_begin!: Date;

  @Property({ type: 'text' })
  org_name!: string;

  @Property({ type: 'string', length: 45 })
  source_ip!: string;

  /** Reverse DNS of source_ip: null until looked up (dmarc.resolve-ips), '' when it has none. */
  @Property({ type: 'text', nullable: true })
  ip_domain: string | null = null;

  /** ISO 3166 alpha-2 from the geo data; null when the IP is not in it. */
  @Property({ type: 'string', length: 2, nullable: true })
  country_code: string | null = null;

  @Property({ type: 'integer' })
  count!: number;

  @Property({ type: 'string', length: 10 })
  disposition!: string;

  @Property({ type: 'boolean' })
  aligned_dkim!: boolean;

  @Property({ type: 'boolean' })
  aligned_spf!: boolean;

  /** Any DKIM / SPF check passed, aligned or not (auth_results). */
  @Property({ type: 'boolean' })
  passed_dkim!: boolean;

  @Property({ type: 'boolean' })
  passed_spf!: boolean;

  @Property({ type: 'text', nullable: true })
  override_reason: string | null = null;

  @Property({ type: 'text', nullable: true })
  override_comment: string | null = null;

  @Property({ type: 'text' })
  header_from!: string;

  @Property({ type: 'text', nullable: true })
  envelope_from: string | null = null;

  @Property({ type: 'json' })
  spf_auth: Opt<AuthResult[]> = [];

  @Property({ type: 'json' })
  dkim_auth: Opt<AuthResult[]> = [];
}

/** An IP the customer marked in the report of one monitor. */
@Entity({ tableName: 'dmarc_favorites' })
@Unique({ properties: ['monitor', 'ip'] })
export class DmarcFavorite extends BaseEntity {
  @ManyToOne(() => DmarcMonitor, { deleteRule: 'cascade' })
  monitor!: DmarcMonitor;

  @Property({ type: 'string', length: 45 })
  ip!: string;
}

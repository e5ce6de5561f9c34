import type { EntityManager } from '@mikro-orm/postgresql';
import { likeEscape, sqlCount, sqlRow, sqlRows, Where } from '../../db/sql.js';
import { recordsetInsert } from '../../db/recordset.js';
import type { AggregateRecord, AuthResult } from './aggregate.js';
import type { DmarcCategory } from './dmarc.constants.js';
import { DmarcFavorite, DmarcReportRow } from './dmarc.entity.js';

/** What narrows the report rows read: the period (report begin), one IP, an organisation, a search, a category. */
export interface RowFilter {
  from: Date | null;
  to: Date | null;
  ip?: string;
  report_source?: string | null;
  search?: string | null;
  category?: DmarcCategory | null;
}

export interface Paging {
  page: number;
  limit: number;
}

/** One source IP summed over the rows read (sums of bigint come back as text). */
export interface SourceIpRow {
  source_ip: string;
  volume: string | number | null;
  dmarc_pass: string | number | null;
  spf_pass: string | number | null;
  dkim_pass: string | number | null;
  domain: string;
  country_code: string | null;
  favorite: boolean | null;
}

/** One row of dmarc_report_rows as written (the entity DmarcReportRow describes the table): a report's record and where it belongs. */
export type DmarcRowValues = AggregateRecord & {
  id: string;
  /** created_at and updated_at, ISO. */
  at: string;
  account_id: string;
  monitor_id: string;
  report_id: string;
  date_begin: string;
  org_name: string;
  country_code: string | null;
  passed_dkim: boolean;
  passed_spf: boolean;
};

/** One stored `<record>` of a report, the columns the reads show. */
export interface ReportRecordRow {
  id: string;
  source_ip: string;
  ip_domain: string | null;
  count: number;
  disposition: string;
  aligned_spf: boolean;
  aligned_dkim: boolean;
  passed_spf: boolean;
  passed_dkim: boolean;
  override_reason: string | null;
  override_comment: string | null;
  header_from: string;
  country_code: string | null;
  org_name: string;
  spf_auth: AuthResult[] | null;
  dkim_auth: AuthResult[] | null;
  created_at: Date | string;
}

const FAVORITE = 'exists (select 1 from dmarc_favorites f where f.monitor_id = r.monitor_id and f.ip = r.source_ip)';

function rowFilter(monitorId: string, f: RowFilter): Where {
  const w = new Where().add('r.monitor_id = ?', monitorId);
  if (f.from) w.add('r.date_begin >= ?', f.from);
  if (f.to) w.add('r.date_begin <= ?', f.to);
  if (f.ip !== undefined) w.add('r.source_ip = ?', f.ip);
  if (f.report_source) w.add('lower(r.org_name) = lower(?)', f.report_source);
  if (f.search) {
    const like = `%${likeEscape(f.search.trim())}%`;
    w.add("(r.source_ip ilike ? or coalesce(r.ip_domain, '') ilike ? or r.header_from ilike ?)", like, like, like);
  }
  if (f.category === 'favorites') w.add(FAVORITE);
  if (f.category === 'compliant') w.add('(r.aligned_spf or r.aligned_dkim)');
  if (f.category === 'non_compliant') w.add('not (r.aligned_spf or r.aligned_dkim)');
  return w;
}

const offset = (p: Paging) => (p.page - 1) * p.limit;

/** The reads of stored aggregate reports, favorites, and the reverse-DNS fill of their source IPs. */
export class DmarcRepository {
  constructor(private readonly em: EntityManager) {}

  /** Per source IP over the matching rows: favorites first, then the largest volume. */
  sourceIps(monitorId: string, filter: RowFilter, page: Paging): Promise<SourceIpRow[]> {
    const w = rowFilter(monitorId, filter);
    return sqlRows<SourceIpRow>(
      this.em,
      `select r.source_ip, sum(r.count) as volume,
              sum(r.count) filter (where r.aligned_spf or r.aligned_dkim) as dmarc_pass,
              sum(r.count) filter (where r.passed_spf) as spf_pass,
              sum(r.count) filter (where r.passed_dkim) as dkim_pass,
              mode() within group (order by r.header_from) as domain,
              max(r.country_code) as country_code,
              bool_or(${FAVORITE}) as favorite
         from dmarc_report_rows r
        where ${w.sql}
        group by r.source_ip
        order by favorite desc, volume desc, r.source_ip asc
        limit ${w.param(page.limit)} offset ${w.param(offset(page))}`,
      w.params,
    );
  }

  /** The rows of the filter (one IP): newest report first, then the largest and best-passing records. */
  records(monitorId: string, filter: RowFilter, page: Paging): Promise<ReportRecordRow[]> {
    const w = rowFilter(monitorId, filter);
    return sqlRows<ReportRecordRow>(
      this.em,
      `select r.* from dmarc_report_rows r where ${w.sql} order by r.date_begin desc, lower(r.org_name), r.count desc, (r.aligned_spf or r.aligned_dkim) desc, r.passed_spf desc, r.passed_dkim desc, r.id limit ${w.param(page.limit)} offset ${w.param(offset(page))}`,
      w.params,
    );
  }

  /**
   * Reporting organisations of the reports beginning in the period, with how many each sent;
   * `disposition`: only reports with a row the receiver treated so.
   */
  sources(monitorId: string, from: Date, to: Date, disposition: string | null): Promise<{ org_name: string; reports: string | number }[]> {
    const w = new Where().add('d.monitor_id = ?', monitorId).add('d.date_begin >= ?', from).add('d.date_begin <= ?', to);
    if (disposition) w.add('exists (select 1 from dmarc_report_rows r where r.report_id = d.id and r.disposition = ?)', disposition);
    return sqlRows<{ org_name: string; reports: string | number }>(
      this.em,
      `select d.org_name, count(*) as reports from dmarc_reports d where ${w.sql} group by d.org_name order by reports desc, lower(d.org_name) asc, d.org_name asc`,
      w.params,
    );
  }

  /** Whether the IP appears in any report of the monitor. */
  async reported(monitorId: string, ip: string): Promise<boolean> {
    const seen = await sqlRow(this.em, 'select 1 from dmarc_report_rows where monitor_id = $1 and source_ip = $2 limit 1', [monitorId, ip]);
    return Boolean(seen);
  }

  /** Marks the IP a favorite of the monitor; marking it again changes nothing. */
  async addFavorite(monitorId: string, ip: string): Promise<void> {
    await sqlCount(
      this.em,
      `insert into dmarc_favorites (id, created_at, updated_at, monitor_id, ip) values ($1, now(), now(), $2, $3)
       on conflict (monitor_id, ip) do nothing`,
      [new DmarcFavorite().id, monitorId, ip],
    );
  }

  /** A batch of a report's rows, in one statement. */
  async insertRows(rows: DmarcRowValues[]): Promise<void> {
    if (!rows.length) return;
    const insert = recordsetInsert<DmarcRowValues>(this.em, DmarcReportRow, {
      id: true, at: ['created_at', 'updated_at'], account_id: true, monitor_id: true, report_id: true, date_begin: true, org_name: true,
      source_ip: true, country_code: true, count: true, disposition: true, aligned_dkim: true, aligned_spf: true, passed_dkim: true,
      passed_spf: true, override_reason: true, override_comment: true, header_from: true, envelope_from: true, spf_auth: true, dkim_auth: true,
    });
    await sqlCount(this.em, `insert into dmarc_report_rows (${insert.columns}) select ${insert.values} from ${insert.from('$1::jsonb')}`, [JSON.stringify(rows)]);
  }

  /** The report's source IPs not looked up yet. */
  async unresolvedIps(reportId: string): Promise<string[]> {
    const rows = await sqlRows<{ source_ip: string }>(
      this.em,
      'select distinct source_ip from dmarc_report_rows where report_id = $1 and ip_domain is null',
      [reportId],
    );
    return rows.map((r) => r.source_ip);
  }

  /** The reverse DNS name of one source IP, on every row of the report that names it ('' when it has none). */
  async setIpDomain(reportId: string, ip: string, name: string): Promise<void> {
    await sqlCount(this.em, 'update dmarc_report_rows set ip_domain = $1 where report_id = $2 and source_ip = $3', [name, reportId, ip]);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { countryName } from '../../lib/geo.js';
import { parseMoment, type Moment } from '../../lib/moment.js';
import type { AppServices } from '../../core/services.js';
import { asDate } from '../../db/sql.js';
import { normalizeIp, percent, ReportError, type AuthResult } from './aggregate.js';
import { DmarcFavorite, DmarcMonitor } from './dmarc.entity.js';
import { DISPOSITION_OF } from './dmarc.constants.js';
import { DmarcRepository, type RowFilter } from './dmarc.repository.js';
import type { DmarcFavoriteArgs, DmarcIpReportArgs, DmarcReportArgs, DmarcReportSourcesArgs, UploadDmarcReportArgs } from './dmarc.inputs.js';
import type { DmarcReportIpType, DmarcReportReceiptType, DmarcReportRecordType, DmarcReportSourceType } from './dmarc.type.js';
import { storeReport } from './report.store.js';
import { readUploadedReport } from './report-reader.js';
import { PoolRefusal } from '../../lib/untrusted-pool.js';
import { type Actor } from '../../core/actor.js';
import { errors, label, FieldErrorBag } from '../../core/errors.js';

type Services = Pick<AppServices, 'orm' | 'boss' | 'log' | 'config'>;

const DAY_MS = 86_400_000;

/**
 * The reporting period filter of SPEC.md: date_to after date_from and not in the future. A bare
 * day as date_to reaches through that day's end. Reports are placed by the start of their period.
 */
function period(args: { date_from?: string | null; date_to?: string | null }, required: boolean, now = new Date()) {
  const bag = new FieldErrorBag();
  const read = (field: 'date_from' | 'date_to'): Moment | null => {
    const value = args[field];
    if (value === undefined || value === null || value === '') {
      if (required) bag.add(field, `The ${label(field)} field is required.`);
      return null;
    }
    const m = parseMoment(value, { day: true });
    if (!m) bag.add(field, `The ${label(field)} must be a date (YYYY-MM-DD), a date and time (YYYY-MM-DD HH:MM:SS) or a Unix timestamp.`);
    return m;
  };
  const from = read('date_from');
  const to = read('date_to');
  if (to && to.at.getTime() > now.getTime()) bag.add('date_to', 'The date to must not be in the future.');
  if (from && to && to.at.getTime() <= from.at.getTime()) bag.add('date_to', 'The date to must be a date after date from.');
  bag.throwIfAny();
  return { from: from?.at ?? null, to: to ? new Date(to.at.getTime() + (to.day ? DAY_MS - 1 : 0)) : null };
}

/** The rows a report read covers: the period, the request's filters and, for one IP's records, the IP. */
function filterOf(args: DmarcReportArgs, when: ReturnType<typeof period>, ip?: string): RowFilter {
  return { ...when, report_source: args.report_source, search: args.search, category: args.category, ...(ip !== undefined ? { ip } : {}) };
}

const num = (v: unknown) => Number(v ?? 0);

export class DmarcReportService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Services,
  ) {}

  private monitor(auth: Actor, id: string): Promise<DmarcMonitor> {
    return findOwned(this.em, DmarcMonitor, auth, { id }, ['domain']);
  }

  private get reports(): DmarcRepository {
    return new DmarcRepository(this.em);
  }

  /** Per source IP over the matching records: favorites first, then the largest volume. */
  async report(auth: Actor, args: DmarcReportArgs): Promise<DmarcReportIpType[]> {
    const when = period(args, false);
    const monitor = await this.monitor(auth, args.monitor_id);
    const rows = await this.reports.sourceIps(monitor.id, filterOf(args, when), args);
    return rows.map((r) => {
      const volume = num(r.volume);
      const code = r.country_code ?? null;
      return {
        ip_address: r.source_ip,
        total_volume: volume,
        passed_dmarc: percent(num(r.dmarc_pass), volume),
        passed_spf: percent(num(r.spf_pass), volume),
        passed_dkim: percent(num(r.dkim_pass), volume),
        domain: r.domain,
        country: countryName(code),
        country_code: code,
        city: null,
        is_favorite: r.favorite ? true : null,
      };
    });
  }

  /** The records of one source IP: newest report first, then the largest and best-passing records. */
  async ipReport(auth: Actor, args: DmarcIpReportArgs): Promise<DmarcReportRecordType[]> {
    const when = period(args, false);
    const monitor = await this.monitor(auth, args.monitor_id);
    // An IP written another way (IPv6 case, zeros) is the same source; a non-IP matches nothing.
    const ip = normalizeIp(args.ip);
    if (!ip) return [];
    const rows = await this.reports.records(monitor.id, filterOf(args, when, ip), args);
    return rows.map((r) => {
      const spf = r.spf_auth ?? [];
      const dkim = r.dkim_auth ?? [];
      const volume = num(r.count);
      const dmarc = Boolean(r.aligned_spf || r.aligned_dkim);
      const code = r.country_code ?? null;
      // The domain each check was made for: the passing one when there is one.
      const pick = (list: AuthResult[]) => (list.find((a) => a.result === 'pass') ?? list[0])?.domain ?? null;
      return {
        id: r.id,
        ip_address: r.source_ip,
        ip_domain: r.ip_domain ?? '',
        total_volume: volume,
        passed_dmarc: percent(dmarc ? volume : 0, volume),
        passed_spf: percent(r.passed_spf ? volume : 0, volume),
        passed_dkim: percent(r.passed_dkim ? volume : 0, volume),
        spf_domain: pick(spf),
        dkim_domain: pick(dkim),
        aligned_spf: Boolean(r.aligned_spf),
        aligned_dkim: Boolean(r.aligned_dkim),
        created_at: asDate(r.created_at),
        applied_policy: r.disposition,
        override_reason: r.override_reason ?? null,
        override_comment: r.override_comment ?? null,
        domain: r.header_from,
        country: countryName(code),
        country_code: code,
        city: null,
        report_source: r.org_name,
        spf_auth: spf.map((a) => ({ ...a, selector: null })),
        dkim_auth: dkim.map((a) => ({ ...a, selector: a.selector ?? null })),
      };
    });
  }

  /** Reporting organisations in the period, with how many reports each sent. */
  async sources(auth: Actor, args: DmarcReportSourcesArgs): Promise<DmarcReportSourceType[]> {
    const { from, to } = period(args, true);
    const monitor = await this.monitor(auth, args.monitor_id);
    const rows = await this.reports.sources(monitor.id, from!, to!, args.status ? DISPOSITION_OF[args.status] : null);
    return rows.map((r) => ({ report_source: r.org_name, reports: num(r.reports) }));
  }

  /** Marks an IP that appears in the monitor's reports; marking it again changes nothing. */
  async addFavorite(auth: Actor, args: DmarcFavoriteArgs): Promise<boolean> {
    const monitor = await this.monitor(auth, args.monitor_id);
    const ip = normalizeIp(args.ip);
    if (!ip) throw errors.notFound();
    if (!(await this.reports.reported(monitor.id, ip))) throw errors.notFound();
    await this.reports.addFavorite(monitor.id, ip);
    return true;
  }

  async removeFavorite(auth: Actor, args: DmarcFavoriteArgs): Promise<boolean> {
    const monitor = await this.monitor(auth, args.monitor_id);
    const ip = normalizeIp(args.ip);
    const removed = ip ? await this.em.nativeDelete(DmarcFavorite, { monitor: monitor.id, ip }) : 0;
    if (!removed) throw errors.notFound();
    return true;
  }

  /** An uploaded report file: stored like one that came by mail. */
  async upload(auth: Actor, args: UploadDmarcReportArgs): Promise<DmarcReportReceiptType> {
    const monitor = await this.monitor(auth, args.monitor_id);
    const data = decodeUpload(args.report, this.services.config.DMARC_MAX_REPORT_BYTES);
    try {
      const read = await readUploadedReport(this.services.config, data);
      const { report, duplicate } = await storeReport(this.services, monitor.id, read, 'upload');
      return {
        id: report.id,
        report_source: report.org_name,
        report_id: report.report_id,
        domain: String(report.policy.domain ?? monitor.domain.name),
        date_from: report.date_begin,
        date_to: report.date_end,
        records: report.records,
        total_volume: Number(report.total_volume),
        duplicate,
        created_at: report.created_at,
      };
    } catch (err) {
      if (err instanceof ReportError) throw errors.invalid('report', err.message);
      if (err instanceof PoolRefusal) throw errors.unavailable();
      throw err;
    }
  }
}

/**
 * The XML as text, or any report file in base64 (whitespace and line breaks allowed). A file
 * larger than the XML a report may unpack to is refused before it is decoded or sent to a thread:
 * compression never makes a report bigger.
 */
function decodeUpload(report: string, maxBytes: number): Buffer {
  const tooBig = () => errors.invalid('report', `The report file is larger than ${maxBytes} bytes.`);
  // base64 with line breaks takes under 1.4 characters a byte.
  if (report.length > 2 * maxBytes) throw tooBig();
  const s = report.trim();
  if (!s) throw errors.invalid('report', 'The report field is required.');
  if (s.startsWith('<')) {
    if (Buffer.byteLength(s, 'utf8') > maxBytes) throw tooBig();
    return Buffer.from(s, 'utf8');
  }
  const b64 = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 === 1) {
    throw errors.invalid('report', 'The report must be the report file in base64 (XML, gzip or zip), or the XML itself.');
  }
  const data = Buffer.from(b64, 'base64');
  if (data.length > maxBytes) throw tooBig();
  return data;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type * as MailParser from 'mailparser';
import { lazy } from '../../lib/lazy.js';
import { enqueue } from '../../jobs/boss.js';
import { countryCodeOf } from '../../lib/geo.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { parseAggregate, ReportError, unpack, type AggregateReport } from './aggregate.js';
import type { ReportChannel } from './dmarc.constants.js';
import { DmarcMonitor, DmarcReport, DmarcReportRow } from './dmarc.entity.js';
import { dmarcResolveIpsJob } from './dmarc.job.js';

/** Loaded on first use (lib/lazy.ts): only the roles that parse mail pay for the parser. */
const mailparser = lazy<typeof MailParser>('mailparser');

type Services = Pick<AppServices, 'orm' | 'boss' | 'log'>;

export interface StoredReport {
  report: DmarcReport;
  /** The same report (organisation and report_id) had been received before: nothing was added. */
  duplicate: boolean;
}

const within = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/**
 * The records of a report that concern the monitored domain. A report is about the domain whose
 * policy applied (policy_published), which may be the monitored domain, one of its subdomains,
 * or, when a subdomain is monitored, its parent; any other domain is not this monitor's report.
 */
function recordsFor(report: AggregateReport, domain: string) {
  const policy = report.policy.domain;
  if (policy === domain || within(policy, domain)) return report.records;
  if (within(domain, policy)) return report.records.filter((r) => within(r.header_from, domain));
  throw new ReportError(`The report is about ${policy}, not ${domain}.`);
}

async function rowsOf(tx: EntityManager, monitor: DmarcMonitor, stored: DmarcReport, report: AggregateReport, records: AggregateReport['records']) {
  const countries = new Map<string, string | null>();
  for (const r of records) if (!countries.has(r.source_ip)) countries.set(r.source_ip, await countryCodeOf(r.source_ip));
  return records.map((r) =>
    tx.create(DmarcReportRow, {
      account: monitor.account,
      monitor,
      report: stored,
      date_begin: report.date_begin,
      org_name: report.org_name,
      source_ip: r.source_ip,
      country_code: countries.get(r.source_ip) ?? null,
      count: r.count,
      disposition: r.disposition,
      aligned_dkim: r.aligned_dkim,
      aligned_spf: r.aligned_spf,
      passed_dkim: r.dkim_auth.some((a) => a.result === 'pass'),
      passed_spf: r.spf_auth.some((a) => a.result === 'pass'),
      override_reason: r.override_reason,
      override_comment: r.override_comment,
      header_from: r.header_from,
      envelope_from: r.envelope_from,
      spf_auth: r.spf_auth,
      dkim_auth: r.dkim_auth,
    }),
  );
}

/**
 * Stores one report file (XML, gzip or zip) for a monitor, with its rows, in one transaction
 * that also queues the reverse-DNS lookups of its source IPs. Throws ReportError when the file is
 * no report for this monitor.
 */
export async function storeReport(services: Services, monitorId: string, data: Buffer, via: ReportChannel): Promise<StoredReport> {
  const report = parseAggregate(unpack(data));
  const em = services.orm.em.fork();
  const monitor = await em.findOneOrFail(DmarcMonitor, { id: monitorId }, { populate: ['domain'] });
  const records = recordsFor(report, monitor.domain.name);
  const key = { monitor: monitor.id, org_name: report.org_name, report_id: report.report_id };
  const existing = await em.findOne(DmarcReport, key);
  if (existing) return { report: existing, duplicate: true };
  try {
    return await em.transactional(async (tx) => {
      const stored = tx.create(DmarcReport, {
        account: tx.getReference(Account, (monitor.account as Account).id),
        monitor,
        org_name: report.org_name,
        org_email: report.org_email,
        report_id: report.report_id,
        date_begin: report.date_begin,
        date_end: report.date_end,
        policy: report.policy,
        records: records.length,
        total_volume: records.reduce((n, r) => n + r.count, 0),
        received_via: via,
      });
      await rowsOf(tx, monitor, stored, report, records);
      await tx.flush();
      if (records.length) await enqueue(tx, services.boss, dmarcResolveIpsJob, { report_id: stored.id });
      return { report: stored, duplicate: false };
    });
  } catch (err) {
    // The same report arriving twice at once: the unique key lets one in.
    if ((err as { code?: string }).code === '23505') {
      const winner = await services.orm.em.fork().findOne(DmarcReport, key);
      if (winner) return { report: winner, duplicate: true };
    }
    throw err;
  }
}

/** A part of a mail that may hold a report: compressed, or XML. Names and types are only hints. */
function looksLikeReport(content: Buffer): boolean {
  if (content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b) return true;
  if (content.length >= 4 && content.readUInt32LE(0) === 0x04034b50) return true;
  const head = content.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('<?xml') || head.startsWith('<feedback');
}

export interface MailOutcome {
  stored: number;
  duplicates: number;
  /** Why parts that looked like reports were refused; a mail with none at all says so too. */
  problems: string[];
}

/**
 * A mail that came to monitors' report addresses (RFC 7489 7.2.1.1: the report is an
 * attachment, gzip or zip, usually one per mail). Every report part is stored for every monitor
 * the mail was addressed to.
 */
export async function ingestReportMail(services: Services, monitorIds: string[], raw: Buffer): Promise<MailOutcome> {
  const mail = await mailparser().simpleParser(raw);
  const parts: Buffer[] = mail.attachments.map((a) => a.content).filter(looksLikeReport);
  // A reporter that puts the XML in the body itself.
  if (!parts.length && mail.text && looksLikeReport(Buffer.from(mail.text))) parts.push(Buffer.from(mail.text));
  const outcome: MailOutcome = { stored: 0, duplicates: 0, problems: [] };
  if (!parts.length) outcome.problems.push('The message holds no DMARC aggregate report (XML, gzip or zip).');
  for (const monitorId of monitorIds) {
    for (const part of parts) {
      try {
        const { duplicate } = await storeReport(services, monitorId, part, 'smtp');
        if (duplicate) outcome.duplicates++;
        else outcome.stored++;
      } catch (err) {
        if (!(err instanceof ReportError)) throw err;
        outcome.problems.push(err.message);
      }
    }
  }
  return outcome;
}

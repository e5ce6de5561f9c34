import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { countryCodeOf } from '../../lib/geo.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { ReportError, type AggregateReport } from './aggregate.js';
import type { ReportChannel } from './dmarc.constants.js';
import { DmarcMonitor, DmarcReport } from './dmarc.entity.js';
import { DmarcRepository, type DmarcRowValues } from './dmarc.repository.js';
import { newId } from '../../lib/ids.js';
import { dmarcResolveIpsJob } from './dmarc.job.js';

type Services = Pick<AppServices, 'orm' | 'boss' | 'log' | 'config'>;

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

/**
 * Rows are written this many to a statement: a report of thousands of records is stored in
 * several round trips, between which the event loop serves others (the ORM's unit of work held
 * it for seconds over 20,000 records: test/dmarc/report-limits.test.ts).
 */
const ROW_BATCH = 1000;

async function insertRows(tx: EntityManager, monitor: DmarcMonitor, reportId: string, report: AggregateReport, records: AggregateReport['records']) {
  const accountId = (monitor.account as Account).id;
  const at = new Date().toISOString();
  const countries = new Map<string, string | null>();
  for (let start = 0; start < records.length; start += ROW_BATCH) {
    const batch = records.slice(start, start + ROW_BATCH);
    const rows: DmarcRowValues[] = [];
    for (const r of batch) {
      if (!countries.has(r.source_ip)) countries.set(r.source_ip, await countryCodeOf(r.source_ip));
      rows.push({
        ...r,
        id: newId(),
        at,
        account_id: accountId,
        monitor_id: monitor.id,
        report_id: reportId,
        date_begin: report.date_begin.toISOString(),
        org_name: report.org_name,
        country_code: countries.get(r.source_ip) ?? null,
        passed_dkim: r.dkim_auth.some((a) => a.result === 'pass'),
        passed_spf: r.spf_auth.some((a) => a.result === 'pass'),
      });
    }
    await new DmarcRepository(tx).insertRows(rows);
  }
}

/**
 * Stores one report (read by report-reader.ts) for a monitor, with its rows, in one transaction
 * that also queues the reverse-DNS lookups of its source IPs. Throws ReportError when it is no
 * report for this monitor.
 */
export async function storeReport(services: Services, monitorId: string, report: AggregateReport, via: ReportChannel): Promise<StoredReport> {
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
      await tx.flush();
      await insertRows(tx, monitor, stored.id, report, records);
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

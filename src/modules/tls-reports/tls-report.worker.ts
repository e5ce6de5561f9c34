import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { mailHostAddresses } from '../../lib/mail-hosts.js';
import { tlsReportsSent } from '../../lib/metrics.js';
import { parseTlsRptRecord, reportFileName, reportMail, tlsReport } from '../../lib/tls-rpt.js';
import { checkedHttpsAgent, extraCaOf } from '../mail/mta-sts.js';
import { TlsSessionRepository } from './tls-session.repository.js';
import { tlsReportJob } from './tls-report.job.js';

/** Domains reported in one run at most; the rest of the day's counts are dropped with it. */
const DOMAINS_MAX = 10_000;
const POST_TIMEOUT_MS = 30_000;

const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The previous UTC day's TLS reports (RFC 8460): for each recipient domain with counts, its
 * `_smtp._tls` record is read again, and the gzipped JSON report goes to each of its `rua`
 * URIs, by mail (multipart/report, through the mail transport) or by HTTPS POST (the host's
 * address checked as MX addresses are, a valid certificate, no redirect). The day's counts are
 * deleted once reported, and anything older left by a failed run. Guarded by test/mail/mta-sts.test.ts.
 */
export const tlsReportWorker = defineWorker(tlsReportJob, async (data, services: AppServices) => {
  const day = data.day ?? dayBefore(new Date().toISOString().slice(0, 10));
  const repo = () => new TlsSessionRepository(services.orm.em.fork());
  for (const domain of await repo().domains(day, DOMAINS_MAX)) {
    try {
      await reportDomain(services, repo(), day, domain);
    } catch (err) {
      services.log.warn({ domain, day, err: (err as Error).message }, 'TLS report not sent');
    }
    await repo().clear(day, domain);
  }
  await repo().clearBefore(day);
});

async function reportDomain(services: AppServices, repo: TlsSessionRepository, day: string, domain: string): Promise<void> {
  const record = parseTlsRptRecord(await services.dns.txt(`_smtp._tls.${domain}`));
  if (!record) return;
  const { config } = services;
  const organization = config.TLS_REPORT_ORGANIZATION ?? new URL(config.PUBLIC_URL).hostname;
  const reportId = `${day}.${domain}.${randomBytes(6).toString('hex')}@${organization}`;
  const report = tlsReport({ organization, contact: config.MAIL_FROM, day, reportId }, domain, await repo.countsOf(day, domain));
  const gz = gzipSync(JSON.stringify(report));
  const fileName = reportFileName(organization, domain, day, reportId.split('@')[0]);
  for (const uri of record.rua) {
    const via = uri.startsWith('mailto:') ? 'mail' : 'https';
    try {
      if (via === 'mail') await mailReport(services, uri.slice('mailto:'.length), { domain, organization, reportId, fileName, gz });
      else await postReport(services, uri, gz);
      tlsReportsSent.inc({ via, result: 'sent' });
    } catch (err) {
      tlsReportsSent.inc({ via, result: 'failed' });
      services.log.warn({ domain, day, uri, err: (err as Error).message }, 'TLS report not delivered');
    }
  }
}

async function mailReport(services: AppServices, to: string, r: { domain: string; organization: string; reportId: string; fileName: string; gz: Buffer }) {
  const from = services.config.MAIL_FROM;
  const messageId = `${randomBytes(12).toString('hex')}@${r.organization}`;
  const raw = reportMail({ from, to, domain: r.domain, submitter: r.organization, reportId: r.reportId, fileName: r.fileName, gz: r.gz, messageId });
  await services.mail.sendRaw({
    envelope: { from, to: [to] },
    raw,
    meta: { email_id: '', to, from, subject: `Report Domain: ${r.domain}`, text: '', html: null, kind: 'tls-report' },
  });
}

async function postReport(services: AppServices, uri: string, gz: Buffer): Promise<void> {
  const url = new URL(uri);
  const checked = await mailHostAddresses(services.dns, url.hostname, services.config.MX_ALLOW_PRIVATE);
  const address = checked.usable[0];
  if (!address) throw new Error('no permitted address for the report host');
  const agent = checkedHttpsAgent(url.hostname, address, extraCaOf(services.config.OUTBOUND_TLS_CA_FILE), POST_TIMEOUT_MS);
  try {
    const res = await request(url, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/tlsrpt+gzip' }, body: gz });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`answered ${res.statusCode}`);
  } finally {
    await agent.close();
  }
}

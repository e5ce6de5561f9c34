import type { Config } from '../../config/index.js';
import { poolOf, PoolRefusal, threadFile, UntrustedPool } from '../../lib/untrusted-pool.js';
import { ReportError, type AggregateReport } from './aggregate.js';
import type { MailInput, MailRead, ReportRead } from './report.thread.js';

type ReaderSettings = Pick<Config, 'DMARC_MAX_REPORT_BYTES' | 'SMTP_MAX_DMARC_BYTES' | 'UNTRUSTED_PARSE_THREADS' | 'UNTRUSTED_PARSE_TIMEOUT_MS'>;

/**
 * A report thread's heap. Reading a report costs about 20 times its XML in heap, so the largest
 * report DMARC_MAX_REPORT_BYTES lets through by default fits with room; a report that does not
 * fit ends its thread and is refused (test/dmarc/report-limits.test.ts).
 */
const THREAD_HEAP_MB = 256;
/** Reports waiting for a thread at most; reporters retry a 451 and API callers a 503. */
const QUEUE = 16;

/**
 * What one report mail may hold (RFC 7489 7.2.1.1: the report is attached, usually alone, to
 * a short text): a few parts, a few attachments, and no more decoded bytes than the mail itself
 * may have (base64 and quoted-printable only shrink).
 */
const MAIL_PARTS = 32;
const MAIL_ATTACHMENTS = 8;
const MAIL_REPORTS = 5;

/** The report pool of an app (its config), made on first use; the app's close ends it. */
function poolFor(config: ReaderSettings): UntrustedPool {
  return poolOf(config, 'dmarc-reports', () =>
    new UntrustedPool(threadFile(import.meta.url, 'report.thread'), {
      threads: config.UNTRUSTED_PARSE_THREADS,
      queue: QUEUE,
      timeoutMs: config.UNTRUSTED_PARSE_TIMEOUT_MS,
      heapMb: THREAD_HEAP_MB,
    }),
  );
}

/**
 * Dates come back from a thread built by another realm's Date when the sources run in a VM
 * context (jest), where the ORM's `instanceof Date` does not know them: rebuilt here.
 */
const revive = (report: AggregateReport): AggregateReport => ({
  ...report,
  date_begin: new Date(report.date_begin.getTime()),
  date_end: new Date(report.date_end.getTime()),
});

/** A report that cost more time or memory than a thread may spend is no report we take. */
function tooCostly(err: unknown): ReportError | null {
  if (err instanceof PoolRefusal && err.reason !== 'busy') return new ReportError(`The report could not be read within the limits: ${err.message}`);
  return null;
}

/**
 * An uploaded report file, read off the event loop. Throws ReportError when it is no report (or
 * too costly to read), PoolRefusal('busy') when too many are being read already.
 */
export async function readUploadedReport(config: ReaderSettings, data: Buffer): Promise<AggregateReport> {
  let read: ReportRead;
  try {
    read = await poolFor(config).run<ReportRead>('readReportFile', { data, maxBytes: config.DMARC_MAX_REPORT_BYTES });
  } catch (err) {
    throw tooCostly(err) ?? err;
  }
  if (!read.report) throw new ReportError(read.problem ?? 'The report could not be read.');
  return revive(read.report);
}

/** The reports of a mail to report addresses, read off the event loop; PoolRefusal('busy') as above. */
export async function readMailedReports(config: ReaderSettings, raw: Buffer): Promise<MailRead> {
  const input: MailInput = {
    raw,
    maxBytes: config.DMARC_MAX_REPORT_BYTES,
    mail: { maxParts: MAIL_PARTS, maxAttachments: MAIL_ATTACHMENTS, maxDecodedBytes: config.SMTP_MAX_DMARC_BYTES },
    maxReports: MAIL_REPORTS,
  };
  try {
    const read = await poolFor(config).run<MailRead>('readReportMail', input);
    return { ...read, reports: read.reports.map(revive) };
  } catch (err) {
    const costly = tooCostly(err);
    if (costly) return { reports: [], problems: [costly.message] };
    throw err;
  }
}

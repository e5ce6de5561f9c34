import type { Config } from '../../config/index.js';
import { limitRefusal, refusalOrThrow, type MailRefusal } from '../../lib/mail-in-pool.js';
import { poolOf, threadFile, UntrustedPool } from '../../lib/untrusted-pool.js';
import type { Report, ReportInput, ReportRead } from './bounce-report.thread.js';

export type { Report };

type ReportSettings = Pick<Config, 'SMTP_MAX_REPORT_BYTES' | 'UNTRUSTED_PARSE_THREADS' | 'UNTRUSTED_PARSE_TIMEOUT_MS'>;

/**
 * What one report mail may hold. A DSN or an ARF report is a multipart/report of three parts (a
 * human-readable text, the machine-readable fields, the original or its headers); the returned
 * original brings its own parts, which reporters cut short (Postfix returns 50 KB of it). Decoded
 * content is bounded by the largest report taken (SMTP_MAX_REPORT_BYTES): base64 and
 * quoted-printable only shrink.
 */
const REPORT_PARTS = 100;
const REPORT_ATTACHMENTS = 50;
/** A report thread's heap: a report of SMTP_MAX_REPORT_BYTES and its parsed copy fit many times over. */
const THREAD_HEAP_MB = 128;
/** Reports waiting for a thread at most; past that the reporter gets a 451 and tries later. */
const QUEUE = 32;

/** The report pool of an app (its config), made on first use; the app's close ends it. */
function poolFor(config: ReportSettings): UntrustedPool {
  return poolOf(config, 'bounce-reports', () =>
    new UntrustedPool(threadFile(import.meta.url, 'bounce-report.thread'), {
      threads: config.UNTRUSTED_PARSE_THREADS,
      queue: QUEUE,
      timeoutMs: config.UNTRUSTED_PARSE_TIMEOUT_MS,
      heapMb: THREAD_HEAP_MB,
    }),
  );
}

/**
 * What a bounce or complaint report says, read off the event loop (bounce-report.thread.ts); or the SMTP
 * reply that refuses it: past its parts, attachments or decoded bytes, too costly to read in
 * UNTRUSTED_PARSE_TIMEOUT_MS and the thread's heap, or 451 when too many wait already.
 */
export async function readReport(config: ReportSettings, raw: Buffer): Promise<{ report: Report } | { refusal: MailRefusal }> {
  const input: ReportInput = { raw, limits: { maxParts: REPORT_PARTS, maxAttachments: REPORT_ATTACHMENTS, maxDecodedBytes: config.SMTP_MAX_REPORT_BYTES } };
  let read: ReportRead;
  try {
    read = await poolFor(config).run<ReportRead>('readReportMail', input);
  } catch (err) {
    return { refusal: refusalOrThrow(err) };
  }
  if (read.refusal) return { refusal: limitRefusal(read.refusal.reason, read.refusal.message) };
  return { report: read.report };
}

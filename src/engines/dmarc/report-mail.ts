import { PoolRefusal } from '../../lib/untrusted-pool.js';
import type { AppServices } from '../../core/services.js';
import { ReportError } from '../../modules/dmarc/aggregate.js';
import { readMailedReports } from '../../modules/dmarc/report-reader.js';
import { storeReport } from '../../modules/dmarc/report.store.js';
import type { MailRead } from '../../modules/dmarc/report.thread.js';

type Services = Pick<AppServices, 'orm' | 'boss' | 'log' | 'config'>;

export interface MailOutcome {
  stored: number;
  duplicates: number;
  /** Why parts that looked like reports were refused; a mail with none at all says so too. */
  problems: string[];
}

/**
 * Too many reports are being read at once: a 451 (smtp/server.ts passes on any error that
 * carries a responseCode), so the reporter sends the mail again later.
 */
export class ReportMailDeferred extends Error {
  readonly responseCode = 451;
  constructor() {
    super('4.3.2 Too many reports are being read; try again later');
  }
}

/**
 * A mail that came to monitors' report addresses (RFC 7489 7.2.1.1: the report is an
 * attachment, gzip or zip, usually one per mail). Its reports are read once, off the event loop
 * and within the limits of report-reader.ts; each is stored for every monitor the mail was
 * addressed to.
 */
export async function ingestReportMail(services: Services, monitorIds: string[], raw: Buffer): Promise<MailOutcome> {
  let read: MailRead;
  try {
    read = await readMailedReports(services.config, raw);
  } catch (err) {
    if (err instanceof PoolRefusal) throw new ReportMailDeferred();
    throw err;
  }
  const outcome: MailOutcome = { stored: 0, duplicates: 0, problems: [...read.problems] };
  for (const monitorId of monitorIds) {
    for (const report of read.reports) {
      try {
        const { duplicate } = await storeReport(services, monitorId, report, 'smtp');
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

import type { ParsedMail } from 'mailparser';
import { MailLimitError, parseMailBounded, type MailLimits } from '../../lib/bounded-mail.js';
import { poolTask } from '../../lib/untrusted-thread.js';
import { ReportError, type AggregateReport } from './aggregate.js';
import { parseAggregate, unpack, UnpackBudget } from './aggregate.parse.js';

/**
 * The tasks of the DMARC report threads (report-reader.ts runs them, with a hard time limit):
 * everything that unpacks or parses what a reporter sent, off the event loop. Inputs and results
 * cross the thread boundary by structured clone: a Buffer arrives as a Uint8Array.
 */

export interface ReportRead {
  report: AggregateReport | null;
  /** Why the file is no report (a ReportError's message), when it is not. */
  problem: string | null;
}

export interface MailRead {
  reports: AggregateReport[];
  /** Why parts that looked like reports, or the mail itself, were refused. */
  problems: string[];
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function readOne(data: Buffer, budget: UnpackBudget): ReportRead {
  try {
    return { report: parseAggregate(unpack(data, budget)), problem: null };
  } catch (err) {
    if (err instanceof ReportError) return { report: null, problem: err.message };
    throw err;
  }
}

/** One uploaded report file (XML, gzip or zip). */
export const readReportFile = poolTask((input: { data: Uint8Array; maxBytes: number }): ReportRead =>
  readOne(bufferOf(input.data), new UnpackBudget(input.maxBytes)),
);

/** A part of a mail that may hold a report: compressed, or XML. Names and types are only hints. */
function looksLikeReport(content: Buffer): boolean {
  if (content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b) return true;
  if (content.length >= 4 && content.readUInt32LE(0) === 0x04034b50) return true;
  const head = content.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('<?xml') || head.startsWith('<feedback');
}

function reportParts(mail: ParsedMail): Buffer[] {
  const parts = mail.attachments.map((a) => a.content).filter(looksLikeReport);
  // A reporter that puts the XML in the body itself.
  if (!parts.length && mail.text && looksLikeReport(Buffer.from(mail.text))) parts.push(Buffer.from(mail.text));
  return parts;
}

export interface MailInput {
  raw: Uint8Array;
  /** XML bytes all the mail's reports may unpack to together. */
  maxBytes: number;
  mail: MailLimits;
  /** Report parts one mail may carry (RFC 7489 7.2.1.1 expects one). */
  maxReports: number;
}

/**
 * A mail to report addresses: its MIME read within `mail`'s limits, then each report part
 * unpacked and read, all of them drawing on one budget of XML bytes.
 */
export const readReportMail = poolTask(async (input: MailInput): Promise<MailRead> => {
  let mail: ParsedMail;
  try {
    mail = await parseMailBounded(bufferOf(input.raw), input.mail, { skipHtmlToText: true, skipTextLinks: true });
  } catch (err) {
    if (err instanceof MailLimitError) return { reports: [], problems: [err.message] };
    throw err;
  }
  const parts = reportParts(mail);
  if (!parts.length) return { reports: [], problems: ['The message holds no DMARC aggregate report (XML, gzip or zip).'] };
  if (parts.length > input.maxReports) {
    return { reports: [], problems: [`The message holds ${parts.length} report files; at most ${input.maxReports} are read from one message.`] };
  }
  const budget = new UnpackBudget(input.maxBytes);
  const read: MailRead = { reports: [], problems: [] };
  for (const part of parts) {
    const { report, problem } = readOne(part, budget);
    if (report) read.reports.push(report);
    else read.problems.push(problem!);
  }
  return read;
});

import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { extractEntry, ZipError, zipEntries } from './zip.js';
import {
  failReport as fail,
  MAX_EXPANSION_RATIO,
  MAX_REPORT_RECORDS,
  MAX_ZIP_ENTRIES,
  RATIO_FLOOR_BYTES,
  normalizeIp,
  type AggregateRecord,
  type AggregateReport,
  type AuthResult,
} from './aggregate.js';

/**
 * DMARC aggregate reports (RFC 7489 section 7.2 and appendix C): unpacking (plain XML, gzip or
 * zip, told apart by their first bytes, never by a file name a reporter may get wrong) and a
 * strict reading of the XML into what the service stores. Pure: no database, no network. Every
 * size is judged before the work it would cost: report.thread.ts runs this off the event loop.
 */

/**
 * The XML bytes the reports of one upload or one mail may unpack to, all together
 * (DMARC_MAX_REPORT_BYTES): each report is charged before it is inflated, as far as its
 * container declares its size, and inflation stops where the budget or the ratio ends.
 */
export class UnpackBudget {
  readonly total: number;
  private used = 0;

  constructor(total: number) {
    this.total = total;
  }

  /** The most one report of `compressed` bytes may unpack to, and what refuses it past that. */
  allowanceFor(compressed: number): { bytes: number; refusal: string } {
    const byRatio = Math.max(RATIO_FLOOR_BYTES, compressed * MAX_EXPANSION_RATIO);
    const left = this.total - this.used;
    if (byRatio < left) return { bytes: byRatio, refusal: `The report inflates more than ${MAX_EXPANSION_RATIO} times its compressed size, which no report does.` };
    return { bytes: left, refusal: this.tooMuch() };
  }

  charge(bytes: number): void {
    if (bytes > this.total - this.used) fail(this.tooMuch());
    this.used += bytes;
  }

  private tooMuch(): string {
    return this.used ? `The reports unpack to more than ${this.total} bytes together.` : `The report unpacks to more than ${this.total} bytes.`;
  }
}

const isGzip = (data: Buffer) => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

/** gzip: its trailer's declared size judged first, then zlib stops at the allowance whatever it said. */
function gunzipReport(data: Buffer, budget: UnpackBudget): Buffer {
  const allowed = budget.allowanceFor(data.length);
  if (data.length >= 18 && data.readUInt32LE(data.length - 4) > allowed.bytes) fail(allowed.refusal);
  try {
    return gunzipSync(data, { maxOutputLength: Math.max(1, allowed.bytes) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') fail(allowed.refusal);
    return fail('The gzip data is damaged.');
  }
}

/** zip: the directory is judged (entries, one XML file, its declared size) before anything inflates. */
function unzipReport(data: Buffer, budget: UnpackBudget): Buffer {
  try {
    const xml = zipEntries(data, MAX_ZIP_ENTRIES).filter((e) => /\.xml$/i.test(e.name));
    if (xml.length !== 1) fail(xml.length ? 'The zip archive holds more than one XML file.' : 'The zip archive holds no XML file.');
    const allowed = budget.allowanceFor(xml[0].compressedSize);
    if (xml[0].size > allowed.bytes) fail(allowed.refusal);
    return extractEntry(data, xml[0]);
  } catch (err) {
    if (err instanceof ZipError) fail(err.message);
    throw err;
  }
}

/** One report file, as XML text: gunzipped or unzipped when it is compressed, within the budget. */
export function unpack(data: Buffer, budget: UnpackBudget): string {
  const xml = isGzip(data) ? gunzipReport(data, budget) : isZip(data) ? unzipReport(data, budget) : data;
  budget.charge(xml.length);
  return xml.toString('utf8');
}

/** Elements the schema lets repeat: always arrays, even when a report has one. */
const ARRAYS = new Set([
  'feedback.record',
  'feedback.record.auth_results.dkim',
  'feedback.record.auth_results.spf',
  'feedback.record.row.policy_evaluated.reason',
]);

let parserInstance: XMLParser | null = null;
const parser = () =>
  (parserInstance ??= new XMLParser({
    ignoreAttributes: true,
    // Every value stays text: report_id "0012" and org names made of digits must not become numbers.
    parseTagValue: false,
    trimValues: true,
    jPath: true,
    isArray: (_name, path) => ARRAYS.has(String(path)),
  }));

type Node = Record<string, unknown>;

const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // An element with attributes or children where text was expected.
  const t = (v as Node)['#text'];
  return typeof t === 'string' ? t.trim() || null : null;
};

function required(node: Node | undefined, key: string, where: string): string {
  return text(node?.[key]) ?? fail(`The report has no ${where}.`);
}

function uint(value: string, where: string): number {
  if (!/^\d{1,15}$/.test(value)) fail(`The ${where} "${value}" is not a whole number.`);
  return Number(value);
}

const PASS_FAIL = new Set(['pass', 'fail']);
const DISPOSITIONS = new Set(['none', 'quarantine', 'reject']);


function authResults(list: unknown, type: 'spf' | 'dkim', n: number): AuthResult[] {
  return ((list as Node[] | undefined) ?? []).map((a) => ({
    type,
    domain: (text(a?.domain) ?? fail(`Record ${n} has a ${type} result without a domain.`)).toLowerCase(),
    result: (text(a?.result) ?? fail(`Record ${n} has a ${type} result without a result.`)).toLowerCase(),
    selector: type === 'dkim' ? text(a?.selector) : null,
  }));
}

function readRecord(rec: Node, n: number): AggregateRecord {
  const row = rec.row as Node | undefined;
  if (!row) fail(`Record ${n} has no row.`);
  const ipText = required(row, 'source_ip', `source_ip in record ${n}`);
  const source_ip = normalizeIp(ipText) ?? fail(`Record ${n} has an invalid source_ip "${ipText}".`);
  const count = uint(required(row, 'count', `count in record ${n}`), `count in record ${n}`);
  const pe = row!.policy_evaluated as Node | undefined;
  if (!pe) fail(`Record ${n} has no policy_evaluated.`);
  const disposition = required(pe, 'disposition', `disposition in record ${n}`).toLowerCase();
  if (!DISPOSITIONS.has(disposition)) fail(`Record ${n} has an unknown disposition "${disposition}".`);
  const dkim = required(pe, 'dkim', `policy_evaluated dkim in record ${n}`).toLowerCase();
  const spf = required(pe, 'spf', `policy_evaluated spf in record ${n}`).toLowerCase();
  if (!PASS_FAIL.has(dkim) || !PASS_FAIL.has(spf)) fail(`Record ${n} has a policy_evaluated result other than pass or fail.`);
  const [reason] = ((pe!.reason as Node[] | undefined) ?? []).filter(Boolean);
  const ids = rec.identifiers as Node | undefined;
  const header_from = required(ids, 'header_from', `header_from in record ${n}`).toLowerCase();
  const auth = (rec.auth_results as Node | undefined) ?? {};
  return {
    source_ip,
    count,
    disposition: disposition as AggregateRecord['disposition'],
    aligned_dkim: dkim === 'pass',
    aligned_spf: spf === 'pass',
    override_reason: text(reason?.type),
    override_comment: text(reason?.comment),
    header_from,
    envelope_from: text(ids?.envelope_from)?.toLowerCase() ?? null,
    spf_auth: authResults(auth.spf, 'spf', n),
    dkim_auth: authResults(auth.dkim, 'dkim', n),
  };
}

/** How many `<record>` elements the text opens, counted up to one past the limit without parsing it. */
function recordTags(xml: string): number {
  const tag = /<record[\s>]/g;
  let n = 0;
  while (n <= MAX_REPORT_RECORDS && tag.test(xml)) n++;
  return n;
}

/** Reads one aggregate report; a ReportError names the first thing that is missing or wrong. */
export function parseAggregate(xml: string): AggregateReport {
  // Reports never declare a DTD; one that does is refused rather than expanded (entity bombs).
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) fail('The report declares a DTD, which DMARC reports never do.');
  if (recordTags(xml) > MAX_REPORT_RECORDS) fail(`The report holds more than ${MAX_REPORT_RECORDS} records.`);
  let doc: Node;
  try {
    doc = parser().parse(xml, true) as Node;
  } catch (err) {
    return fail(`The report is not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
  const feedback = doc.feedback as Node | undefined;
  if (!feedback || typeof feedback !== 'object') fail('The XML is not a DMARC aggregate report (no <feedback> element).');
  const meta = feedback!.report_metadata as Node | undefined;
  const range = meta?.date_range as Node | undefined;
  const begin = uint(required(range, 'begin', 'date_range begin'), 'date_range begin');
  const end = uint(required(range, 'end', 'date_range end'), 'date_range end');
  if (end < begin) fail('The report ends before it begins.');
  const published = feedback!.policy_published as Node | undefined;
  const pct = text(published?.pct);
  const records = ((feedback!.record as Node[] | undefined) ?? []).map((r, i) => readRecord(r ?? {}, i + 1));
  return {
    org_name: required(meta, 'org_name', 'org_name'),
    org_email: text(meta?.email),
    report_id: required(meta, 'report_id', 'report_id'),
    date_begin: new Date(begin * 1000),
    date_end: new Date(end * 1000),
    policy: {
      domain: required(published, 'domain', 'policy_published domain').toLowerCase().replace(/\.$/, ''),
      adkim: text(published?.adkim),
      aspf: text(published?.aspf),
      p: text(published?.p),
      sp: text(published?.sp),
      pct: pct && /^\d{1,3}$/.test(pct) ? Number(pct) : null,
    },
    records,
  };
}


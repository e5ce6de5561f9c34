import { isIP } from 'node:net';

/**
 * DMARC aggregate reports (RFC 7489 section 7.2 and appendix C): what a report holds, the limits
 * every reading of one keeps, and the helpers the service's reads share. The unpacking and the
 * XML reading are aggregate.parse.ts's, which only the report threads load.
 */

/**
 * A report inflating more than this many times its compressed size is a decompression bomb:
 * aggregate XML packs 10 to 120 times (a report whose records differ only by source IP, about
 * 115: test/dmarc/report-limits.test.ts); zeros and padding pack about 1,000 times. Below
 * RATIO_FLOOR_BYTES of output the ratio is not judged (tiny reports pack oddly and cost nothing).
 */
export const MAX_EXPANSION_RATIO = 250;
export const RATIO_FLOOR_BYTES = 1024 * 1024;
/** A report archive holds one XML file; an archive listing more is refused before any is read. */
export const MAX_ZIP_ENTRIES = 16;
/**
 * Records one report may hold, counted before the XML is parsed. A record is one source IP with
 * one set of results for a day: thousands for a large sender, never tens of thousands; each is a
 * stored row.
 */
export const MAX_REPORT_RECORDS = 20_000;

export type AuthResult = { type: 'spf' | 'dkim'; result: string; domain: string; selector: string | null };

export interface AggregateRecord {
  source_ip: string;
  count: number;
  /** policy_evaluated: what the receiver did, and the aligned results DMARC decided on. */
  disposition: 'none' | 'quarantine' | 'reject';
  aligned_dkim: boolean;
  aligned_spf: boolean;
  override_reason: string | null;
  override_comment: string | null;
  header_from: string;
  envelope_from: string | null;
  /** auth_results: the raw checks, aligned or not. */
  spf_auth: AuthResult[];
  dkim_auth: AuthResult[];
}

export interface AggregateReport {
  org_name: string;
  org_email: string | null;
  report_id: string;
  date_begin: Date;
  date_end: Date;
  policy: { domain: string; adkim: string | null; aspf: string | null; p: string | null; sp: string | null; pct: number | null };
  records: AggregateRecord[];
}

export class ReportError extends Error {}

/** Refuses the report with `message` (a ReportError, answered as the report's fault). */
export const failReport = (message: string): never => {
  throw new ReportError(message);
};

/** IPv6 written one way (lowercase, compressed) so one source is one row in the reads. */
export function normalizeIp(ip: string): string | null {
  const s = ip.trim();
  const v = isIP(s);
  if (v === 4) return s.split('.').map((o) => String(Number(o))).join('.');
  if (v === 6) {
    // An IPv4 source written as IPv4-mapped IPv6 is that IPv4 source.
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(s);
    if (mapped && isIP(mapped[1]) === 4) return normalizeIp(mapped[1]);
    try {
      return new URL(`http://[${s}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
  }
  return null;
}

/** The passes a percentage of the volume, as the reads show it: "100%", "66.67%", "0%". */
export function percent(part: number, whole: number): string {
  if (!whole) return '0%';
  return `${Number(((part * 100) / whole).toFixed(2))}%`;
}

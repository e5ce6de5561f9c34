import type { MtaStsPolicy } from './mta-sts.js';

/**
 * SMTP TLS Reporting (RFC 8460): the `_smtp._tls` record of a recipient domain, and the daily
 * aggregate report of the TLS sessions delivery made to it (docs/delivery.md, "TLS reports").
 */

/** Where a domain wants its reports: `mailto:` and `https:` URIs of its record's `rua`. */
export interface TlsRptRecord {
  rua: string[];
}

/** A URI of the record with its %-escapes undone (section 3 allows `,` and `;` escaped); a malformed one is dropped. */
function decoded(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return '';
  }
}

/** Section 3: `v=TLSRPTv1; rua=mailto:a@example.com,https://example.com/r`; anything else is no record. */
export function parseTlsRptRecord(txts: string[]): TlsRptRecord | null {
  const records = txts.filter((t) => /^v=TLSRPTv1\s*(;|$)/.test(t.trim()));
  if (records.length !== 1) return null;
  const rua = /(?:^|;)\s*rua=([^;]*)/.exec(records[0])?.[1];
  if (!rua) return null;
  const uris = rua
    .split(',')
    .map((u) => decoded(u.trim()))
    .filter((u) => /^mailto:[^@\s]+@[^@\s]+$/i.test(u) || /^https:\/\/\S+$/i.test(u))
    .slice(0, 5);
  return uris.length ? { rua: uris } : null;
}

/** The policy a session was made under: the host's DANE records (presentation form), the domain's MTA-STS policy, or none found. */
export type SessionPolicy = { type: 'tlsa'; records: string[] } | { type: 'sts'; policy: MtaStsPolicy } | { type: 'no-policy-found' };

/** Section 4.3's result types that delivery can tell apart. */
export type TlsResultType =
  | 'starttls-not-supported'
  | 'certificate-host-mismatch'
  | 'certificate-expired'
  | 'certificate-not-trusted'
  | 'validation-failure';

/** The result type of a failed STARTTLS or certificate check, from its error. */
export function tlsResultType(err: { code?: string; message?: string }): TlsResultType {
  const text = `${err.code ?? ''} ${err.message ?? ''}`;
  if (/STARTTLS/i.test(text) && /not support|not offered|does not/i.test(text)) return 'starttls-not-supported';
  if (/CERT_HAS_EXPIRED|expired/i.test(text)) return 'certificate-expired';
  if (/ALTNAME|host ?name|does not match/i.test(text)) return 'certificate-host-mismatch';
  if (/SELF_SIGNED|self[- ]signed|UNABLE_TO_VERIFY|unable to (get|verify)|untrusted|not trusted/i.test(text)) return 'certificate-not-trusted';
  return 'validation-failure';
}

/** One line of a day's counts: sessions to a domain under a policy, through one MX host, with one result (null: success). */
export interface SessionCount {
  policy_domain: string;
  policy_type: SessionPolicy['type'];
  /** The MTA-STS policy's lines or the TLSA records, as section 4.3's `policy-string`. */
  policy_string: string[];
  mx_host: string;
  result_type: TlsResultType | null;
  count: number;
}

/** A session's policy as the report's `policy-string`: an MTA-STS policy's lines, or the TLSA records. */
export function policyString(under: SessionPolicy): string[] {
  if (under.type === 'tlsa') return under.records;
  if (under.type === 'no-policy-found') return [];
  const { policy } = under;
  return ['version: STSv1', `mode: ${policy.mode}`, ...policy.mx.map((mx) => `mx: ${mx}`), `max_age: ${policy.maxAge}`];
}

export interface ReportMeta {
  organization: string;
  contact: string;
  /** The UTC day reported, `YYYY-MM-DD`. */
  day: string;
  reportId: string;
}

/** Section 4's JSON report of one domain's sessions on one day. */
export function tlsReport(meta: ReportMeta, domain: string, counts: SessionCount[]) {
  const byPolicy = new Map<string, SessionCount[]>();
  for (const c of counts) {
    const key = `${c.policy_type}\n${c.policy_string.join('\n')}`;
    byPolicy.set(key, [...(byPolicy.get(key) ?? []), c]);
  }
  return {
    'organization-name': meta.organization,
    'date-range': { 'start-datetime': `${meta.day}T00:00:00Z`, 'end-datetime': `${meta.day}T23:59:59Z` },
    'contact-info': meta.contact,
    'report-id': meta.reportId,
    policies: [...byPolicy.values()].map((group) => {
      const first = group[0];
      const failures = group.filter((c) => c.result_type);
      return {
        policy: {
          'policy-type': first.policy_type,
          ...(first.policy_type !== 'no-policy-found' ? { 'policy-string': first.policy_string } : {}),
          'policy-domain': domain,
          'mx-host': [...new Set(group.map((c) => c.mx_host))],
        },
        summary: {
          'total-successful-session-count': group.filter((c) => !c.result_type).reduce((n, c) => n + c.count, 0),
          'total-failure-session-count': failures.reduce((n, c) => n + c.count, 0),
        },
        'failure-details': failures.map((c) => ({ 'result-type': c.result_type, 'receiving-mx-hostname': c.mx_host, 'failed-session-count': c.count })),
      };
    }),
  };
}

/** Section 5.1's file name: `submitter!policy-domain!begin!end!id.json.gz`, the times in seconds. */
export function reportFileName(submitter: string, domain: string, day: string, id: string): string {
  const begin = Date.parse(`${day}T00:00:00Z`) / 1000;
  return `${submitter}!${domain}!${begin}!${begin + 86_399}!${id}.json.gz`;
}

const base64Lines = (data: Buffer) => data.toString('base64').replace(/.{76}/g, '$&\r\n');

/** Section 5.3's mail: multipart/report of report-type tlsrpt, the gzipped report as its attachment. */
export function reportMail(o: { from: string; to: string; domain: string; submitter: string; reportId: string; fileName: string; gz: Buffer; messageId: string }): Buffer {
  const boundary = `tlsrpt-${o.messageId.replace(/[^a-z0-9]/gi, '')}`;
  const lines = [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: Report Domain: ${o.domain} Submitter: ${o.submitter} Report-ID: <${o.reportId}>`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${o.messageId}>`,
    `TLS-Report-Domain: ${o.domain}`,
    `TLS-Report-Submitter: ${o.submitter}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type="tlsrpt"; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `This is an aggregate TLS report from ${o.submitter} for ${o.domain}.`,
    '',
    `--${boundary}`,
    `Content-Type: application/tlsrpt+gzip; name="${o.fileName}"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${o.fileName}"`,
    '',
    base64Lines(o.gz),
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}

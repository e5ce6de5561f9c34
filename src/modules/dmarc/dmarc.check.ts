import type { Dns } from '../../lib/dns.js';
import { DmarcMonitor } from './dmarc.entity.js';
import { parseDmarcRecord } from './dmarc-record.js';
import { spfStatus } from './spf.js';

export interface CheckResult {
  dmarc_record: string;
  dmarc_valid: boolean;
  spf_record: string | null;
  spf_status: string;
}

/** Records at `_dmarc` that mean to be DMARC; other TXT text there is ignored (RFC 7489 6.6.3). */
const isDmarcCandidate = (txt: string) => /^v\s*=\s*dmarc1/i.test(txt.trim());

/**
 * Asks DNS for the domain's DMARC and SPF records. A lookup that fails (timeout, SERVFAIL)
 * throws, so the stored result of the previous check is kept rather than replaced by "absent".
 */
export async function lookup(dns: Dns, domain: string): Promise<CheckResult> {
  const [dmarcTxt, rootTxt] = await Promise.all([dns.txt(`_dmarc.${domain}`), dns.txt(domain)]);
  const candidates = dmarcTxt.map((t) => t.trim()).filter(isDmarcCandidate);
  // More than one DMARC record means no policy at all for receivers: shown, never valid.
  const dmarc_record = candidates.join('\n');
  const dmarc_valid = candidates.length === 1 && parseDmarcRecord(candidates[0]).ok;
  const spf = spfStatus(rootTxt);
  return { dmarc_record, dmarc_valid, spf_record: spf.record, spf_status: spf.status };
}

export async function applyCheck(dns: Dns, monitor: DmarcMonitor, now = new Date()): Promise<void> {
  Object.assign(monitor, await lookup(dns, monitor.domain.name), { dmarc_record_checked_at: now });
}

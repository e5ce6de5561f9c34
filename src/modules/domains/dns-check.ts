import type { Config } from '../../config/index.js';
import type { Dns } from '../../lib/dns.js';
import type { Domain } from './domain.entity.js';
import type { DnsCheckResult, DomainDnsRecords } from './domain.type.js';

const norm = (s: string) => s.toLowerCase().replace(/\.$/, '');

/** The records a customer publishes for a domain (GET /dns-records). */
export function expectedRecords(d: Domain, config: Config): DomainDnsRecords {
  const s = d.settings;
  return {
    id: d.id,
    spf: { hostname: d.name, type: 'TXT', value: `v=spf1 include:${config.SPF_INCLUDE} ~all` },
    dkim: {
      hostname: `${d.dkim_selector}._domainkey.${d.name}`,
      type: 'TXT',
      value: `v=DKIM1; k=rsa; p=${d.dkim_public_key}`,
    },
    return_path: { hostname: `${s.return_path_subdomain}.${d.name}`, type: 'CNAME', value: config.RETURN_PATH_TARGET },
    custom_tracking: {
      hostname: `${s.custom_tracking_subdomain}.${d.name}`,
      type: 'CNAME',
      value: config.TRACKING_TARGET,
    },
    inbound_routing: {
      hostname: `${s.inbound_routing_subdomain}.${d.name}`,
      type: 'MX',
      value: config.INBOUND_MX_HOST,
      priority: 10,
    },
  };
}

/** A lookup that fails (timeout, SERVFAIL) counts as "not found": the record cannot be relied on. */
async function safe<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch {
    return [];
  }
}

/** Asks DNS, through the service's one resolver, whether each record is published. */
export async function checkDns(dns: Dns, d: Domain, config: Config): Promise<DnsCheckResult> {
  const want = expectedRecords(d, config);
  const [rootTxt, dkimTxt, rp, track, mx] = await Promise.all([
    safe(dns.txt(d.name)),
    safe(dns.txt(want.dkim.hostname)),
    safe(dns.cname(want.return_path.hostname)),
    safe(dns.cname(want.custom_tracking.hostname)),
    safe(dns.mx(want.inbound_routing.hostname)),
  ]);
  const spf = rootTxt.some((t) => {
    const parts = t.trim().toLowerCase().split(/\s+/);
    return parts[0] === 'v=spf1' && parts.includes(`include:${config.SPF_INCLUDE.toLowerCase()}`);
  });
  const dkim = dkimTxt.some((t) => t.replace(/\s+/g, '').includes(`p=${d.dkim_public_key}`));
  const tracking = track.some((c) => norm(c) === norm(config.TRACKING_TARGET));
  return {
    dkim,
    spf,
    mx: mx.some((m) => norm(m.exchange) === norm(config.INBOUND_MX_HOST)),
    tracking,
    cname: tracking,
    rp_cname: rp.some((c) => norm(c) === norm(config.RETURN_PATH_TARGET)),
  };
}

/**
 * What the checks mean for the domain: it is verified (may send) with SPF and DKIM, its DNS is
 * fully active when the return-path CNAME is there too, and custom tracking is verified by its CNAME.
 * A domain trusted by the sandbox stays verified there; passing the DNS check makes it a domain
 * verified like any other (no longer `trusted`).
 */
export function applyCheck(d: Domain, r: DnsCheckResult): void {
  d.dkim = r.dkim;
  d.spf = r.spf;
  d.mx = r.mx;
  d.tracking = r.tracking;
  d.rp_cname = r.rp_cname;
  const byDns = r.dkim && r.spf;
  if (byDns) d.trusted = false;
  d.is_verified = byDns || d.trusted;
  d.is_dns_active = byDns && r.rp_cname;
  d.is_cname_verified = r.tracking;
  d.last_checked_at = new Date();
}

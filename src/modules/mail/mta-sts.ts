import type { LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Logger } from 'pino';
import { Agent, request } from 'undici';
import type { Dns } from '../../lib/dns.js';
import { mailHostAddresses, TtlCache } from '../../lib/mail-hosts.js';
import { parsePolicy, POLICY_MAX_BYTES, stsRecordId, type MtaStsPolicy } from '../../lib/mta-sts.js';

export interface MtaStsOptions {
  dns: Dns;
  /** The policy host's HTTPS port: 443, another only in tests (MTA_STS_PORT). */
  port: number;
  /** Certificates trusted beside the system's, for policy hosts and MX hosts (OUTBOUND_TLS_CA_FILE). */
  extraCa: string[];
  allowPrivate: boolean;
  timeoutMs: number;
  log: Logger;
}

/** How long a policy that could not be fetched (or parsed) is not asked for again. */
const FAILED_MS = 5 * 60_000;

/** Domains whose policy is kept; the oldest goes first beyond it. */
const POLICIES_MAX = 10_000;

/** A lookup that answers the checked address for any name (net's, with or without `all`). */
function checkedLookup(address: string): LookupFunction {
  const family = address.includes(':') ? 6 : 4;
  return (_name, options, callback) => {
    if (options.all) (callback as (err: null, all: LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * An HTTPS agent for one host at its checked address (lib/mail-hosts.ts mailHostAddresses): the
 * name is never resolved again, and the certificate must be valid for the host, from the
 * system's authorities or the configured ones. Close it after its request.
 */
export function checkedHttpsAgent(host: string, address: string, extraCa: string[], timeoutMs: number): Agent {
  return new Agent({
    connect: { ca: trustedCa(extraCa), servername: host, lookup: checkedLookup(address), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/** The certificates of OUTBOUND_TLS_CA_FILE, trusted beside the system's by every checked outbound TLS connection. */
export const extraCaOf = (file: string | undefined): string[] => (file ? [readFileSync(file, 'utf8')] : []);

/** The certificates a strict TLS connection trusts: the system's, and the configured ones. */
export const trustedCa = (extraCa: string[]) => (extraCa.length ? [...rootCertificates, ...extraCa] : undefined);

/**
 * The MTA-STS policies of recipient domains (RFC 8461 section 5): the `_mta-sts` TXT record is
 * read through the service's resolver (its answer kept for a minute), and the policy fetched over
 * HTTPS from `mta-sts.<domain>` only when the record's id changed, with a valid certificate, no
 * redirect, within a timeout and 64 KiB. A policy is kept for its max_age; while it lasts, a
 * record that is gone or a fetch that fails leaves it in force, so a downgrade by DNS does not
 * switch it off.
 */
export class MtaStsPolicies {
  private readonly records = new TtlCache<string | null>();
  private readonly kept = new Map<string, { policy: MtaStsPolicy; until: number }>();
  private readonly fetching = new Map<string, Promise<MtaStsPolicy | null>>();
  /** A record whose policy could not be had is not fetched again for a while: each delivery would wait on it. */
  private readonly failed = new TtlCache<true>(FAILED_MS);

  constructor(private readonly opts: MtaStsOptions) {}

  async policyOf(domain: string): Promise<MtaStsPolicy | null> {
    const id = await this.records.get(domain, async () => stsRecordId(await this.opts.dns.txt(`_mta-sts.${domain}`))).catch(() => null);
    const kept = this.kept.get(domain);
    const live = kept && kept.until > Date.now() ? kept.policy : null;
    if (!id || id === live?.id) return live;
    // Deliveries to the domain meanwhile share the one fetch.
    const key = `${domain} ${id}`;
    if (await this.failed.peek(key)) return live;
    let fetching = this.fetching.get(key);
    if (!fetching) {
      fetching = this.refresh(domain, id, kept).finally(() => this.fetching.delete(key));
      this.fetching.set(key, fetching);
    }
    return (await fetching) ?? live;
  }

  private async refresh(domain: string, id: string, kept: { policy: MtaStsPolicy; until: number } | undefined): Promise<MtaStsPolicy | null> {
    try {
      const policy = await this.fetch(domain, id);
      if (policy) {
        if (this.kept.size >= POLICIES_MAX && !kept) this.kept.delete(this.kept.keys().next().value!);
        this.kept.set(domain, { policy, until: Date.now() + policy.maxAge * 1000 });
        return policy;
      }
      this.opts.log.warn({ domain }, 'MTA-STS: the policy file is not a valid STSv1 policy');
    } catch (err) {
      this.opts.log.warn({ domain, detail: (err as Error).message }, 'MTA-STS: the policy could not be fetched');
    }
    void this.failed.get(`${domain} ${id}`, async () => true);
    return null;
  }

  private async fetch(domain: string, id: string): Promise<MtaStsPolicy | null> {
    const host = `mta-sts.${domain}`;
    // Checked as MX addresses are: a domain's DNS must not point the fetch into our own network.
    const checked = await mailHostAddresses(this.opts.dns, host, this.opts.allowPrivate);
    const address = checked.usable[0];
    if (!address) throw new Error('no permitted address for the policy host');
    const agent = checkedHttpsAgent(host, address, this.opts.extraCa, this.opts.timeoutMs);
    try {
      const res = await request(`https://${host}:${this.opts.port}/.well-known/mta-sts.txt`, { dispatcher: agent, method: 'GET' });
      if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').startsWith('text/plain')) {
        await res.body.dump();
        throw new Error(`answered ${res.statusCode} ${String(res.headers['content-type'] ?? '')}`);
      }
      let text = '';
      for await (const chunk of res.body) {
        text += String(chunk);
        if (text.length > POLICY_MAX_BYTES) {
          res.body.destroy();
          throw new Error('the policy file is larger than 64 KiB');
        }
      }
      return parsePolicy(text, id);
    } finally {
      await agent.close();
    }
  }
}

import { isIP } from 'node:net';
import { classifyAddress, type AddressKind } from './public-address.js';
import type { Dns } from './dns.js';

/**
 * Where the service may open an SMTP connection for a recipient domain (MX delivery and the
 * verification probe). A domain's DNS is written by whoever owns it, so an MX or A record naming
 * loopback, a private network or a cloud metadata address would otherwise turn delivery and
 * verification into a scanner of the service's own network. The address rules are the webhooks'
 * (lib/public-address.ts); MX_ALLOW_PRIVATE lifts them for tests and private deployments.
 */

export interface CheckedAddresses {
  /** Addresses the caller may connect to, in the resolver's order. */
  usable: string[];
  /** Addresses refused by the rules, with the reason (for the server log only). */
  refused: { address: string; kind: AddressKind }[];
}

/** An MX exchange as a host: no trailing dot, lower case, an IPv6 literal without brackets. */
function hostOf(exchange: string): string {
  return exchange.replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * The domain's mail hosts, lowest preference first, or the domain itself when it has no MX
 * (RFC 5321 §5.1). An empty exchange (a null MX, RFC 7505) ends the list: the domain takes no mail.
 */
export function mailHosts(mx: { exchange: string; priority: number }[], domain: string): string[] {
  if (!mx.length) return [hostOf(domain)];
  const hosts: string[] = [];
  for (const record of [...mx].sort((a, b) => a.priority - b.priority)) {
    const host = hostOf(record.exchange);
    if (!host) break;
    hosts.push(host);
  }
  return hosts;
}

/** Splits addresses into those the rules allow and those they refuse. */
export function checkAddresses(addresses: string[], allowPrivate: boolean): CheckedAddresses {
  const out: CheckedAddresses = { usable: [], refused: [] };
  for (const address of addresses) {
    const kind = allowPrivate ? null : classifyAddress(address);
    if (kind) out.refused.push({ address, kind });
    else out.usable.push(address);
  }
  return out;
}

/**
 * One mail host's addresses, resolved once through the service's resolver, every one checked. A
 * caller connects to one of `usable` (an IP) and never resolves the name again, so an answer that
 * changes between the check and the connection (DNS rebinding) cannot redirect it. An exchange
 * that is itself an IP literal is checked as it is.
 */
export async function mailHostAddresses(dns: Dns, host: string, allowPrivate: boolean): Promise<CheckedAddresses> {
  return checkAddresses(isIP(host) ? [host] : await dns.a(host), allowPrivate);
}

/** How long a domain's MX hosts and a host's checked addresses are reused before DNS is asked again. */
export const MAIL_HOST_CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

/**
 * Lookups kept for a bounded time (the Dns interface does not carry record TTLs, so the bound
 * stands in for them: a changed MX is seen within a minute). Failures are not kept, and lookups of
 * one key at the same time share one query. What is kept of addresses is what the rules checked,
 * so the SSRF checks hold for every connection made from the cache.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();
  constructor(private readonly ttlMs = MAIL_HOST_CACHE_MS) {}

  /** The value kept for `key` while it lasts, without loading it. */
  peek(key: string): Promise<T> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > Date.now() ? hit.value : undefined;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.entries.size >= CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    this.entries.set(key, { value, expires: now + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

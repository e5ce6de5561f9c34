import type { Dns } from '../../lib/dns.js';
import type { SourceAddress } from '../../lib/ip-pools.js';

/** A source address's EHLO name beside its reverse DNS: large providers refuse mail whose EHLO and PTR disagree. */
export interface EhloCheck {
  address: string;
  /** The name given in EHLO: the configured one, else the first reverse DNS name, else `fallback`. */
  ehlo: string;
  reverse_dns: string[];
  /** The EHLO name is one of the address's reverse DNS names. */
  matches: boolean;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function checkEhlo(dns: Dns, source: SourceAddress, fallback: string): Promise<EhloCheck> {
  const names = (await dns.ptr(source.address).catch(() => [] as string[])).map(bare);
  const ehlo = source.ehlo ? bare(source.ehlo) : (names[0] ?? fallback);
  return { address: source.address, ehlo, reverse_dns: names, matches: names.includes(ehlo) };
}

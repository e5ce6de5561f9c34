import { Resolver } from 'node:dns/promises';

/**
 * The one DNS resolver of the service. Every lookup (domain checks, MX for delivery, DNSBLs,
 * DMARC) goes through it, so tests point DNS_SERVERS at a local dns2 server and production uses
 * the system resolver.
 */
export interface Dns {
  txt(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
  mx(name: string): Promise<{ exchange: string; priority: number }[]>;
  a(name: string): Promise<string[]>;
  /** Reverse DNS (PTR) names of an IPv4 or IPv6 address. */
  ptr(ip: string): Promise<string[]>;
  /** 'exists' | 'nxdomain' | 'unknown' (the server could not be asked or did not answer). */
  exists(name: string): Promise<'exists' | 'nxdomain' | 'unknown'>;
}

const EMPTY = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NOTFOUND', 'NODATA']);

export function createDns(opts: { servers?: string[]; timeoutMs?: number }): Dns {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: 2 });
  if (opts.servers?.length) resolver.setServers(opts.servers);

  async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
    try {
      return await p;
    } catch (err) {
      if (EMPTY.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  }

  return {
    txt: async (name) => (await orEmpty(resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    cname: (name) => orEmpty(resolver.resolveCname(name)),
    mx: (name) => orEmpty(resolver.resolveMx(name)),
    a: (name) => orEmpty(resolver.resolve4(name)),
    ptr: (ip) => orEmpty(resolver.reverse(ip)),
    async exists(name) {
      try {
        await resolver.resolveSoa(name);
        return 'exists';
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // NODATA: the name exists but has no SOA of its own (a subdomain), which is fine.
        if (code === 'ENODATA') return 'exists';
        if (code === 'ENOTFOUND') return 'nxdomain';
        return 'unknown';
      }
    },
  };
}

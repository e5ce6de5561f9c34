import ipaddr from 'ipaddr.js';

/** What a create request's `address` stands for: a domain, one IP, or a CIDR block of IPs. */
export type ParsedAddress =
  | { kind: 'domain'; address: string }
  | { kind: 'ip'; address: string }
  | { kind: 'cidr'; cidr: string; ips: string[] };

export const CIDR_RANGE_MESSAGE =
  'The address must be a CIDR block from /24 to /32 for IPv4 or from /120 to /128 for IPv6.';
export const ADDRESS_FORMAT_MESSAGE = 'The address must be a domain name, an IP address or a CIDR block.';

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function parseIp(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // Only dotted quads for IPv4: ipaddr.js also takes `127.1` or hex parts, which nobody means here.
  if (ipaddr.IPv4.isValidFourPartDecimal(raw)) return ipaddr.IPv4.parse(raw);
  if (raw.includes(':') && ipaddr.IPv6.isValid(raw)) return ipaddr.IPv6.parse(raw);
  return null;
}

/** Every IP of a block; the prefix limits keep it to at most 256. */
function expand(network: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): string[] {
  const bytes = network.toByteArray();
  const bits = bytes.length * 8;
  const count = 2 ** (bits - prefix);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const b = [...bytes];
    b[b.length - 1] += i;
    out.push(ipaddr.fromByteArray(b).toString());
  }
  return out;
}

/** A message for the `address` field, or what the address is. */
export function parseAddress(input: string): ParsedAddress | { error: string } {
  const raw = input.trim().toLowerCase().replace(/\.$/, '');
  if (raw.includes('/')) {
    const [ipPart, prefixPart] = raw.split('/', 2);
    const ip = parseIp(ipPart);
    if (!ip || !/^\d{1,3}$/.test(prefixPart)) return { error: ADDRESS_FORMAT_MESSAGE };
    const prefix = Number(prefixPart);
    const [min, max] = ip.kind() === 'ipv4' ? [24, 32] : [120, 128];
    if (prefix < min || prefix > max) return { error: CIDR_RANGE_MESSAGE };
    // A /32 (or /128) is one address: it is monitored as that IP, without children.
    if (prefix === max) return { kind: 'ip', address: ip.toString() };
    const network =
      ip.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(`${ipPart}/${prefix}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${ipPart}/${prefix}`);
    return { kind: 'cidr', cidr: `${network.toString()}/${prefix}`, ips: expand(network, prefix) };
  }
  const ip = parseIp(raw);
  if (ip) return { kind: 'ip', address: ip.toString() };
  if (HOSTNAME.test(raw)) return { kind: 'domain', address: raw };
  return { error: ADDRESS_FORMAT_MESSAGE };
}

/** The DNSBL query label of an IP: reversed octets (IPv4) or reversed nibbles (IPv6). */
export function reverseLabel(ip: string): string {
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv4') return addr.toByteArray().reverse().join('.');
  const hex = addr
    .toByteArray()
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  return [...hex].reverse().join('.');
}

/** Orders IPs numerically, so a range's children read 192.0.2.2 before 192.0.2.10. */
export function compareIps(a: string, b: string): number {
  const x = ipaddr.parse(a).toByteArray();
  const y = ipaddr.parse(b).toByteArray();
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

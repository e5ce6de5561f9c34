import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a webhook may connect to. Only public unicast addresses: anything that can
 * reach the service's own host or network (loopback, RFC 1918, link-local and its cloud metadata
 * endpoint, CGNAT, unique-local) or is not a real destination (unspecified, multicast, reserved,
 * documentation) is refused, including IPv6 forms that embed such an IPv4 address.
 */
export type AddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'invalid';

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

const V4_RULES: Array<[number, number, AddressKind]> = [
  [v4(0, 0, 0, 0), 8, 'unspecified'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'cgnat'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'reserved'],
  [v4(192, 0, 2, 0), 24, 'reserved'],
  [v4(192, 88, 99, 0), 24, 'reserved'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'reserved'],
  [v4(198, 51, 100, 0), 24, 'reserved'],
  [v4(203, 0, 113, 0), 24, 'reserved'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function parseV4(ip: string): number | null {
  if (!isIPv4(ip)) return null;
  const [a, b, c, d] = ip.split('.').map(Number);
  return v4(a, b, c, d);
}

function classifyV4(n: number): AddressKind | null {
  for (const [base, prefix, kind] of V4_RULES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if (((n & mask) >>> 0) === base) return kind;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed). */
function parseV6(ip: string): number[] | null {
  const bare = ip.split('%')[0];
  if (!isIPv6(bare)) return null;
  let text = bare;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const n = parseV4(quad[1]);
    if (n === null) return null;
    text = text.slice(0, -quad[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === null ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

function classifyV6(g: number[]): AddressKind | null {
  const embedded = (hi: number, lo: number) => classifyV4(((hi << 16) >>> 0) + lo) ?? null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped): the connection goes to the IPv4 address.
  if (zeros(0, 5) && g[5] === 0xffff) return embedded(g[6], g[7]);
  // ::a.b.c.d (deprecated IPv4-compatible) and other ::/96 oddities are never legitimate targets.
  if (zeros(0, 6)) return 'reserved';
  // 64:ff9b::/96 NAT64 reaches the embedded IPv4 address through a translator.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(g[6], g[7]);
  // 2002::/16 6to4 carries an IPv4 address in bits 16..48.
  if (g[0] === 0x2002) return embedded(g[1], g[2]);
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved';
  if (g[0] === 0x0100 && zeros(1, 4)) return 'reserved';
  return null;
}

/** Null when the address is public; else why it is refused. Brackets around IPv6 are accepted. */
export function classifyAddress(address: string): AddressKind | null {
  const ip = address.replace(/^\[|\]$/g, '');
  const n4 = parseV4(ip);
  if (n4 !== null) return classifyV4(n4);
  const g = parseV6(ip);
  if (g) return classifyV6(g);
  return 'invalid';
}

/** The refusal message used in errors and the webhook log, or null when allowed. */
export function refusal(address: string): string | null {
  const kind = classifyAddress(address);
  if (!kind) return null;
  return `address ${address} is ${kind}`;
}

import ipaddr from 'ipaddr.js';

/**
 * The key a client is counted under by a limiter: its IPv4 address, or the /64 of an IPv6 one (one
 * host usually holds a whole /64, so counting single addresses would give it billions of budgets).
 */
export function clientKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${(addr as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

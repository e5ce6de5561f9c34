import dns2 from 'dns2';

const { Packet } = dns2 as unknown as { Packet: any };

type Rec =
  | { type: 'A'; address: string }
  | { type: 'TXT'; data: string }
  | { type: 'CNAME'; domain: string }
  | { type: 'MX'; exchange: string; priority: number };

const TYPE: Record<string, number> = { A: 1, CNAME: 5, SOA: 6, MX: 15, TXT: 16 };

/** TXT strings are at most 255 bytes each; long ones (DKIM keys) are split like real zones do. */
function chunks(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += 255) out.push(s.slice(i, i + 255));
  return out.length ? out : [''];
}

/**
 * A real DNS server on 127.0.0.1 (UDP and TCP, one port) with a zone the test edits. Names not
 * in the zone answer NXDOMAIN; a name added with `addName` exists (SOA) even with no records.
 */
export async function startDnsServer() {
  const zone = new Map<string, Rec[]>();
  const key = (n: string) => n.toLowerCase().replace(/\.$/, '');
  const server = (dns2 as any).createServer({
    udp: true,
    tcp: true,
    handle: (request: any, send: (r: any) => void) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = key(q.name);
      const records = zone.get(name);
      if (!records) {
        response.header.rcode = 3; // NXDOMAIN
      } else if (q.type === TYPE.SOA) {
        response.answers.push({
          name: q.name, type: TYPE.SOA, class: 1, ttl: 60,
          primary: `ns.${name}`, admin: `hostmaster.${name}`, serial: 1, refresh: 60, retry: 60, expiration: 60, minimum: 60,
        });
      } else {
        for (const r of records) {
          if (TYPE[r.type] !== q.type) continue;
          const base = { name: q.name, type: TYPE[r.type], class: 1, ttl: 60 };
          if (r.type === 'TXT') response.answers.push({ ...base, data: chunks(r.data) });
          else response.answers.push({ ...base, ...r, type: TYPE[r.type] });
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' }, tcp: { port: 0, address: '127.0.0.1' } });
  const addrs = server.addresses();
  // UDP and TCP got separate free ports; the resolver uses one port for both, so rebind TCP there.
  const udpPort: number = addrs.udp.port;
  if (addrs.tcp.port !== udpPort) {
    await new Promise<void>((resolve) => server.servers.tcp.close(() => resolve()));
    await new Promise<void>((resolve, reject) => {
      server.servers.tcp.once('error', reject);
      server.servers.tcp.listen(udpPort, '127.0.0.1', () => resolve());
    });
  }
  return {
    server: `127.0.0.1:${udpPort}`,
    /** Makes the name exist (answers SOA), with no records yet. */
    addName(name: string) {
      if (!zone.has(key(name))) zone.set(key(name), []);
    },
    add(name: string, rec: Rec) {
      this.addName(name);
      zone.get(key(name))!.push(rec);
    },
    remove(name: string) {
      zone.delete(key(name));
    },
    close: () => server.close(),
  };
}

export type TestDns = Awaited<ReturnType<typeof startDnsServer>>;

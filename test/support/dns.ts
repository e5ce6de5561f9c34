import dgram from 'node:dgram';
import dns2 from 'dns2';

const { Packet } = dns2 as unknown as { Packet: any };

type Rec =
  | { type: 'A'; address: string }
  | { type: 'TXT'; data: string }
  | { type: 'CNAME'; domain: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'PTR'; domain: string }
  | { type: 'TLSA'; usage: number; selector: number; mtype: number; data: Buffer };

const TYPE: Record<string, number> = { A: 1, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, TLSA: 52 };

/** TXT strings are at most 255 bytes each; long ones (DKIM keys) are split like real zones do. */
function chunks(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += 255) out.push(s.slice(i, i + 255));
  return out.length ? out : [''];
}

/** A port that is free for UDP right now (the OS picks it); TCP on it is tried next. */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    sock.once('error', reject);
    sock.bind(0, '127.0.0.1', () => {
      const { port } = sock.address();
      sock.close(() => resolve(port));
    });
  });
}

/**
 * The resolver asks one port over UDP and, for long answers, over TCP, so both must listen on
 * the same port. Each attempt has a deadline and error handlers: a port taken meanwhile, or a
 * listen that never completes, means another attempt on another port, never a hung test.
 */
async function listenOnOnePort(make: () => any): Promise<{ server: any; port: number }> {
  let last: unknown;
  for (let attempt = 0; attempt < 8; attempt++) {
    const server = make();
    const port = await freeUdpPort();
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`listen on ${port} timed out`)), 3000);
        for (const s of [server.servers.udp, server.servers.tcp]) s.once('error', reject);
        // dns2 re-emits its sockets' errors on the server itself: with no listener there, a port
        // taken between the probe and the bind would crash the whole test file (EADDRINUSE).
        server.on('error', reject);
        server
          .listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } })
          .then(() => {
            clearTimeout(timer);
            resolve();
          }, reject);
      });
      return { server, port };
    } catch (err) {
      last = err;
      try {
        server.close();
      } catch {
        // a half-started server may refuse to close; it is dropped either way
      }
    }
  }
  throw new Error(`could not start the test DNS server: ${String(last)}`);
}

/**
 * A real DNS server on 127.0.0.1 (UDP and TCP, one port) with a zone the test edits. Names not
 * in the zone answer NXDOMAIN; a name added with `addName` exists (SOA) even with no records.
 */
export async function startDnsServer() {
  const zone = new Map<string, Rec[]>();
  // Names whose answers the server says validated (AD), when a query asks (a validating resolver's part in DANE tests).
  const validated = new Set<string>();
  const key = (n: string) => n.toLowerCase().replace(/\.$/, '');
  const make = () => (dns2 as any).createServer({
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
          else if (r.type === 'TLSA') response.answers.push({ ...base, data: Buffer.concat([Buffer.from([r.usage, r.selector, r.mtype]), r.data]) });
          else response.answers.push({ ...base, ...r, type: TYPE[r.type] });
        }
      }
      response.header.ad = request.header.ad && validated.has(name) ? 1 : 0;
      send(response);
    },
  });
  const { server, port: udpPort } = await listenOnOnePort(make);
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
    /** Answers for the name are marked validated (AD) from now on. */
    validate(name: string) {
      validated.add(key(name));
    },
    remove(name: string) {
      zone.delete(key(name));
    },
    // dns2 waits for open TCP connections to end; a resolver may keep one open.
    close: () => Promise.race([server.close(), new Promise((r) => setTimeout(r, 2000).unref())]),
  };
}

export type TestDns = Awaited<ReturnType<typeof startDnsServer>>;

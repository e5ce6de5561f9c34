import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import dns2 from 'dns2';

// dns2's wire format (its Packet), typed for what is used here.
interface WireHeader {
  id: number;
  rd: number;
  ad: number;
  tc: number;
  rcode: number;
}
interface WireAnswer {
  name: string;
  type: number;
  data?: Buffer;
  exchange?: string;
}
interface WirePacket {
  header: WireHeader;
  questions: { name: string; type: number; class: number }[];
  answers: WireAnswer[];
  toBuffer(): Buffer;
}
const { Packet } = dns2 as unknown as { Packet: { new (): WirePacket; parse(buf: Buffer): WirePacket } };

export const TYPE_MX = 15;
export const TYPE_TLSA = 52;

/** An answer of a validating resolver: `secure` when it set AD (the answer passed DNSSEC validation). */
export interface SecureAnswer {
  secure: boolean;
  /** 0 NOERROR, 3 NXDOMAIN, 2 SERVFAIL (what a validating resolver answers for a bogus zone). */
  rcode: number;
  answers: WireAnswer[];
}

/** Answers are read up to this size over UDP; a truncated one is asked again over TCP. */
const MAX_ANSWER_BYTES = 65_535;

/**
 * Queries a DNSSEC-validating resolver (DANE_RESOLVER) and reads its AD bit, which node's resolver
 * does not expose: RFC 6840 section 5.7, a query with AD set asks the resolver to say whether the
 * answer validated. Trusting AD is trusting the resolver and the path to it: run it on the same
 * machine or network (docs/delivery.md, "DANE").
 */
export class ValidatingResolver {
  private readonly host: string;
  private readonly port: number;

  constructor(
    server: string,
    private readonly timeoutMs = 3000,
  ) {
    // `host`, `host:port` or `[ipv6]:port`, as DNS_SERVERS takes them.
    const m = /^\[([0-9a-f:]+)\](?::(\d+))?$/i.exec(server) ?? /^([^:]+)(?::(\d+))?$/.exec(server);
    this.host = m?.[1] ?? server;
    this.port = Number(m?.[2] ?? 53);
  }

  async query(name: string, type: number): Promise<SecureAnswer> {
    const query = new Packet();
    query.header.id = randomInt(1, 65_535);
    query.header.rd = 1;
    query.header.ad = 1;
    query.questions.push({ name, type, class: 1 });
    const bytes = query.toBuffer();
    let answer = Packet.parse(await this.udp(bytes, query.header.id));
    if (answer.header.tc) answer = Packet.parse(await this.tcp(bytes));
    if (answer.header.id !== query.header.id) throw new Error('the resolver answered another query');
    return { secure: answer.header.ad === 1, rcode: answer.header.rcode, answers: answer.answers.filter((a) => a.type === type) };
  }

  private udp(bytes: Buffer, id: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket(net.isIPv6(this.host) ? 'udp6' : 'udp4');
      const done = (err: Error | null, buf?: Buffer) => {
        clearTimeout(timer);
        socket.close();
        if (err) reject(err);
        else resolve(buf!);
      };
      const timer = setTimeout(() => done(new Error(`no answer from ${this.host} in ${this.timeoutMs} ms`)), this.timeoutMs);
      socket.on('error', (err) => done(err));
      // Only an answer to this query counts; anything else on the socket is ignored.
      socket.on('message', (buf) => buf.length >= 2 && buf.readUInt16BE(0) === id && done(null, buf));
      socket.send(bytes, this.port, this.host);
    });
  }

  private tcp(bytes: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: this.host, port: this.port });
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => socket.destroy(new Error(`no answer from ${this.host} in ${this.timeoutMs} ms`)), this.timeoutMs);
      socket.on('connect', () => {
        const length = Buffer.alloc(2);
        length.writeUInt16BE(bytes.length);
        socket.end(Buffer.concat([length, bytes]));
      });
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES + 2) socket.destroy(new Error('the answer is too large'));
        const all = Buffer.concat(chunks);
        if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(all.subarray(2, 2 + all.readUInt16BE(0)));
        }
      });
      socket.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }
}

import { X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls, { type PeerCertificate, type TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { daneMatches, parseTlsa, usableTlsa, type Tlsa } from '../../lib/dane.js';
import { TYPE_MX, TYPE_TLSA, type ValidatingResolver } from '../../lib/dnssec.js';
import { TtlCache } from '../../lib/mail-hosts.js';

/** What DANE asks of one MX host: nothing (no secure TLSA records), or TLS checked against these. */
export type DaneRequirement = { records: Tlsa[] } | null;

/** How long a domain's or host's DNSSEC answers are kept. */
const ANSWER_MS = 5 * 60_000;

/** A DANE failure: the host is not used, and the email is deferred if no other host takes it. */
export class DaneError extends Error {
  readonly code = 'EDANE';
}

/**
 * DANE (RFC 7672) with a validating resolver (DANE_RESOLVER): a domain's MX hosts are subject to
 * DANE only when its MX answer is secure, and a host when its `_<port>._tcp` TLSA answer is
 * secure. A secure TLSA answer with no usable record still requires TLS (section 2.2), checked
 * against nothing. Insecure answers leave delivery as it was (MTA-STS, or opportunistic). A
 * resolver that cannot be asked, or answers SERVFAIL for a name (a bogus zone), defers.
 */
export class DanePolicies {
  private readonly mx = new TtlCache<boolean>(ANSWER_MS);
  private readonly tlsa = new TtlCache<DaneRequirement>(ANSWER_MS);

  constructor(
    private readonly resolver: ValidatingResolver,
    private readonly port: number,
  ) {}

  async requirementOf(domain: string, host: string): Promise<DaneRequirement> {
    const secureMx = await this.mx.get(domain, async () => {
      const answer = await this.resolver.query(domain, TYPE_MX);
      if (answer.rcode === 2) throw new DaneError(`the MX answer of ${domain} failed DNSSEC validation`);
      return answer.secure && answer.answers.length > 0;
    });
    if (!secureMx) return null;
    return this.tlsa.get(host, async () => {
      const answer = await this.resolver.query(`_${this.port}._tcp.${host}`, TYPE_TLSA);
      if (answer.rcode === 2) throw new DaneError(`the TLSA answer of ${host} failed DNSSEC validation`);
      if (!answer.secure || !answer.answers.length) return null;
      return { records: answer.answers.map((a) => parseTlsa(a.data)).filter((t): t is Tlsa => t !== null) };
    });
  }
}

/** The peer's chain, leaf first, as X509 certificates. */
function chainOf(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let c: PeerCertificate | undefined = socket.getPeerCertificate(true); c?.raw && !seen.has(c.fingerprint256) && chain.length < 10; c = (c as { issuerCertificate?: PeerCertificate }).issuerCertificate) {
    seen.add(c.fingerprint256);
    chain.push(new X509Certificate(c.raw));
  }
  return chain;
}

/** Reads one SMTP reply (its last line has a space after the code) and answers its lines. */
function reply(socket: net.Socket, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => finish(new DaneError('the MX host did not answer in time')), timeoutMs);
    const finish = (err: Error | null, lines?: string[]) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', finish);
      if (err) reject(err);
      else resolve(lines!);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.length > 64 * 1024) return finish(new DaneError('the MX host sent too long a reply'));
      const lines = text.split('\r\n');
      if (lines.some((l) => /^\d{3} /.test(l) || /^\d{3}$/.test(l))) finish(null, lines.filter(Boolean));
    };
    socket.on('data', onData);
    socket.once('error', finish);
  });
}

export interface DaneConnect {
  address: string;
  port: number;
  host: string;
  localAddress?: string;
  ehlo: string;
  requirement: { records: Tlsa[] };
  timeoutMs: number;
}

/**
 * A connection to an MX host under DANE, for nodemailer's `getSocket`: greeting, EHLO, STARTTLS
 * and the TLS handshake done here, the chain checked against the TLSA records, then handed over
 * secured, with a greeting put back in front so that nodemailer starts its session (EHLO again,
 * as RFC 3207 requires after STARTTLS) as on any new connection. No mail goes over a connection
 * whose certificate no record matches.
 */
export async function daneConnection(o: DaneConnect, log: Logger): Promise<TLSSocket> {
  const plain = net.connect({ host: o.address, port: o.port, ...(o.localAddress ? { localAddress: o.localAddress } : {}) });
  try {
    await new Promise<void>((resolve, reject) => {
      plain.once('connect', resolve);
      plain.once('error', reject);
      plain.setTimeout(o.timeoutMs, () => plain.destroy(new DaneError('the MX host did not answer in time')));
    });
    const greeting = await reply(plain, o.timeoutMs);
    if (!greeting.at(-1)!.startsWith('220')) throw new DaneError(`the MX host greeted with ${greeting.at(-1)}`);
    plain.write(`EHLO ${o.ehlo}\r\n`);
    const ehlo = await reply(plain, o.timeoutMs);
    if (!ehlo.some((l) => /^250[ -]STARTTLS\b/i.test(l))) throw new DaneError('starttls-not-supported: DANE requires STARTTLS, which the MX host does not offer');
    plain.write('STARTTLS\r\n');
    const ready = await reply(plain, o.timeoutMs);
    if (!ready.at(-1)!.startsWith('220')) throw new DaneError(`the MX host refused STARTTLS: ${ready.at(-1)}`);
    const secure = tls.connect({ socket: plain, servername: o.host, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    const usable = o.requirement.records.filter(usableTlsa);
    if (usable.length && !daneMatches(usable, chainOf(secure), o.host)) {
      secure.destroy();
      throw new DaneError('validation-failure: no TLSA record of the MX host matches its certificate');
    }
    plain.setTimeout(0);
    secure.unshift(Buffer.from(`220 ${o.host} ESMTP\r\n`));
    return secure;
  } catch (err) {
    plain.destroy();
    log.warn({ mx: o.host, address: o.address, detail: (err as Error).message }, 'DANE: no verified connection');
    throw err instanceof DaneError ? err : new DaneError(`DANE: ${(err as Error).message}`);
  }
}

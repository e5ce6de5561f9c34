import type { TestServer } from '../support/server.js';
import { addCredits, credits, startVerificationServer, type ProbeSink } from './setup.js';
import { LOOKS_LIKE_IP, startListeningSmtp, type ListeningSmtp } from './listening-smtp.js';

/**
 * The probe connects only to public addresses unless MX_ALLOW_PRIVATE: a domain's DNS must not
 * make the service open connections into its own network. Callers learn a generic reason.
 */
const UNREACHABLE = 'The mail server could not be reached.';
const ERRNO = /\bE[A-Z]{3,}\b/;

/** Each domain's DNS, as the owner of the domain published it. */
function publish(s: TestServer): void {
  // An MX whose A record is loopback, one in RFC 1918, and the cloud metadata address.
  s.dns.add('loop.test', { type: 'MX', exchange: 'mx.loop.test', priority: 10 });
  s.dns.add('mx.loop.test', { type: 'A', address: '127.0.0.1' });
  s.dns.add('ten.test', { type: 'MX', exchange: 'mx.ten.test', priority: 10 });
  s.dns.add('mx.ten.test', { type: 'A', address: '10.0.0.5' });
  s.dns.add('meta.test', { type: 'MX', exchange: 'mx.meta.test', priority: 10 });
  s.dns.add('mx.meta.test', { type: 'A', address: '169.254.169.254' });
  // MX exchanges that are address literals: IPv6 loopback and IPv4-mapped loopback.
  s.dns.add('v6.test', { type: 'MX', exchange: '::1', priority: 10 });
  s.dns.add('mapped.test', { type: 'MX', exchange: '::ffff:127.0.0.1', priority: 10 });
  // No MX: the domain's own A record is its implicit MX.
  s.dns.add('implicit.test', { type: 'A', address: '127.0.0.1' });
  // Every MX refused, whatever its preference: none is probed instead.
  s.dns.add('both.test', { type: 'MX', exchange: 'a.both.test', priority: 5 });
  s.dns.add('a.both.test', { type: 'A', address: '127.0.0.1' });
  s.dns.add('both.test', { type: 'MX', exchange: 'b.both.test', priority: 10 });
  s.dns.add('b.both.test', { type: 'A', address: '192.168.1.20' });
  // A permitted address where nothing listens (only reachable with MX_ALLOW_PRIVATE).
  s.dns.add('closed.test', { type: 'MX', exchange: 'mx.closed.test', priority: 10 });
  s.dns.add('mx.closed.test', { type: 'A', address: '127.0.0.2' });
}

async function checkAsync(s: TestServer, email: string) {
  const res = await s.rest('POST', '/email-verification/verify-async', { body: { email } });
  expect(res.status).toBe(200);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await s.rest('GET', `/email-verification/verify-async/${res.body.id}`);
    if (got.body.status !== 'queued') return got.body;
    if (Date.now() > deadline) throw new Error(`verification of ${email} still queued`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('MX_ALLOW_PRIVATE=false', () => {
  let s: TestServer;
  let sink: ProbeSink;
  let smtp: ListeningSmtp;
  beforeAll(async () => {
    smtp = await startListeningSmtp();
    ({ s, sink } = await startVerificationServer({ MX_ALLOW_PRIVATE: 'false', VERIFY_SMTP_PORT: String(smtp.port) }));
    await addCredits(s, 100);
    publish(s);
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
    await smtp?.close();
  });

  const refused = ['loop.test', 'ten.test', 'meta.test', 'v6.test', 'mapped.test', 'implicit.test', 'both.test'];

  it.each(refused)('an MX of %s is never probed: failed, with a generic reason, and the credit refunded', async (domain) => {
    const before = await credits(s);
    const body = await checkAsync(s, `jane@${domain}`);
    expect(body).toEqual({ id: expect.any(String), address: `jane@${domain}`, status: 'failed', result: 'failed', error: UNREACHABLE });
    expect(body.error).not.toMatch(LOOKS_LIKE_IP);
    expect(body.error).not.toMatch(ERRNO);
    expect(await credits(s)).toBe(before);
    expect(smtp.connections).toBe(0);
  });

  it('the synchronous check answers failed, and stores no MX host', async () => {
    const res = await s.rest('POST', '/email-verification/verify', { body: { email: 'joe@loop.test' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'failed' });
    const rows = await s.app.services.orm.em
      .fork()
      .execute(`select result, error, mx from email_verifications where address = 'joe@loop.test'`);
    expect(rows).toEqual([{ result: 'failed', error: UNREACHABLE, mx: null }]);
    expect(smtp.connections).toBe(0);
  });

  it('the listening server saw no connection at all', async () => {
    // The counter works: a connection made here is seen.
    const net = await import('node:net');
    await new Promise<void>((resolve, reject) => {
      const c = net.connect({ host: '127.0.0.1', port: smtp.port }, () => {
        c.destroy();
        resolve();
      });
      c.on('error', reject);
    });
    const deadline = Date.now() + 2000;
    while (smtp.connections < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(smtp.peers).toEqual(['127.0.0.1']);
  });
});

/** The same DNS with the switch on (as in the rest of the suite): the probes do connect. */
describe('MX_ALLOW_PRIVATE=true', () => {
  let s: TestServer;
  let sink: ProbeSink;
  let smtp: ListeningSmtp;
  beforeAll(async () => {
    smtp = await startListeningSmtp();
    ({ s, sink } = await startVerificationServer({ MX_ALLOW_PRIVATE: 'true', VERIFY_SMTP_PORT: String(smtp.port) }));
    await addCredits(s, 100);
    publish(s);
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
    await smtp?.close();
  });

  it.each([
    ['loop.test', '127.0.0.1'],
    ['v6.test', '::1'],
    ['mapped.test', '127.0.0.1'],
    ['implicit.test', '127.0.0.1'],
  ])('probes the MX of %s at %s', async (domain, peer) => {
    const before = smtp.connections;
    const body = await checkAsync(s, `jane@${domain}`);
    // The listening server accepts every address: a catch-all.
    expect(body).toMatchObject({ status: 'completed', result: 'catch_all', error: null });
    expect(smtp.peers.slice(before)).toEqual([peer]);
  });

  it('a connection that fails gives the same generic reason, without address or errno', async () => {
    const body = await checkAsync(s, 'jane@closed.test');
    expect(body).toMatchObject({ status: 'failed', result: 'failed', error: UNREACHABLE });
  });
});

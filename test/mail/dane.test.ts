import { createHash, X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { DANE_FAILED } from '../../src/modules/mail/mx-policy.js';
import { daneMatches, parseTlsa } from '../../src/lib/dane.js';
import { seedDomain } from '../support/factories.js';
import { startTlsMx, type TlsMx } from '../support/mx-provider.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { emailsOf, until } from '../sending/helpers.js';

/**
 * DANE (RFC 7672) with MAIL_TRANSPORT=mx: the test DNS server is also DANE_RESOLVER, marking the
 * answers of chosen names as validated (AD). MX hosts on one port: 127.0.0.2 with a self-signed
 * certificate its TLSA 3 1 1 record names (DANE-EE), 127.0.0.3 with a certificate no record
 * names, 127.0.0.4 with a certificate from a test CA its TLSA 2 0 1 record names (DANE-TA).
 */

const day = 86_400_000;
let s: TestServer;
let ee: TlsMx;
let wrong: TlsMx;
let ta: TlsMx;
let lastDomain = '';
const certs: Record<string, X509Certificate> = {};

async function generate(name: string, ca?: { key: string; cert: string }, isCa = false) {
  const now = new Date();
  const out = await selfsigned.generate([{ name: 'commonName', value: name }], {
    keySize: 2048,
    notBeforeDate: new Date(now.getTime() - day),
    notAfterDate: new Date(now.getTime() + day),
    extensions: isCa
      ? [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true }]
      : [{ name: 'basicConstraints', cA: false }, { name: 'subjectAltName', altNames: [{ type: 2 as const, value: name }] }],
    ...(ca ? { ca } : {}),
  });
  return { key: out.private, cert: out.cert };
}


const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
const spki = (cert: X509Certificate) => cert.publicKey.export({ type: 'spki', format: 'der' });

beforeAll(async () => {
  const eeCert = await generate('mx.ee.test');
  const wrongCert = await generate('mx.wrong.test');
  const ca = await generate('Postbox DANE test CA', undefined, true);
  const leaf = await generate('mx.ta.test', ca);
  certs.ee = new X509Certificate(eeCert.cert);
  certs.ca = new X509Certificate(ca.cert);
  certs.leaf = new X509Certificate(leaf.cert);
  ee = await startTlsMx('127.0.0.2', 0, eeCert);
  const port = (ee.server.server.address() as AddressInfo).port;
  wrong = await startTlsMx('127.0.0.3', port, wrongCert);
  // The chain presented: the leaf, then the CA it was issued by.
  ta = await startTlsMx('127.0.0.4', port, { key: leaf.key, cert: `${leaf.cert}\n${ca.cert}` });

  s = await startTestServer({
    env: (dnsServer) => ({ MAIL_TRANSPORT: 'mx', MX_PORT: String(port), MX_ALLOW_PRIVATE: 'true', DANE_RESOLVER: dnsServer, DELIVERY_TIMEOUT_MS: '3000', DELIVERY_RETRY_DELAY_SECONDS: '3600' }),
  });
  const site = (domain: string, host: string, address: string, tlsa: { usage: number; selector: number; mtype: number; data: Buffer } | null, validated: boolean) => {
    s.dns.add(domain, { type: 'MX', exchange: host, priority: 10 });
    s.dns.add(host, { type: 'A', address });
    if (tlsa) s.dns.add(`_${port}._tcp.${host}`, { type: 'TLSA', ...tlsa });
    if (validated) for (const name of [domain, `_${port}._tcp.${host}`]) s.dns.validate(name);
  };
  site('ee.test', 'mx.ee.test', '127.0.0.2', { usage: 3, selector: 1, mtype: 1, data: sha256(spki(certs.ee)) }, true);
  site('wrong.test', 'mx.wrong.test', '127.0.0.3', { usage: 3, selector: 1, mtype: 1, data: sha256(spki(certs.ee)) }, true);
  site('ta.test', 'mx.ta.test', '127.0.0.4', { usage: 2, selector: 0, mtype: 1, data: sha256(certs.ca.raw) }, true);
  // The same wrong record, but not validated: DNSSEC says nothing, so delivery stays opportunistic.
  site('insecure.test', 'mx.insecure.test', '127.0.0.3', { usage: 3, selector: 1, mtype: 1, data: sha256(spki(certs.ee)) }, false);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await Promise.all([ee, wrong, ta].map((m) => m && new Promise((r) => m.server.close(() => r(null)))));
});

/** The TLS policy the activity of the email's delivery names (GraphQL). */
async function tlsPolicyOf(domainId: string, emailId: string): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const page = await s.gql('query($d: ID!, $f: String!, $t: String!) { activities(domain_id: $d, date_from: $f, date_to: $t, event: ["sent", "delivered"]) { data { email { id } tls_policy } } }', {
    d: domainId,
    f: String(now - 600),
    t: String(now + 60),
  });
  return page.body.data.activities.data.filter((a: { email: { id: string } }) => a.email.id === emailId).map((a: { tls_policy: string }) => a.tls_policy);
}

async function attempt(to: string) {
  const domain = await seedDomain(s, { dkim: true });
  lastDomain = domain.id;
  const res = await s.rest('POST', '/email', { body: { from: { email: `hi@${domain.name}` }, to: [{ email: to }], subject: 'DANE', text: 'x' } });
  expect(res.status).toBe(202);
  return until(async () => {
    const [email] = await emailsOf(s, res.headers.get('x-message-id')!);
    return email && email.status !== 'queued' ? email : null;
  }, 20_000, 'the first attempt');
}

const lastResponse = async (emailId: string) => (await s.app.services.orm.em.fork().execute('select last_response from emails where id = ?', [emailId]))[0].last_response;

it('matches TLSA records as RFC 7672 reads them: DANE-EE on the leaf alone, DANE-TA on the chain and the name', () => {
  const eeRecord = parseTlsa(Buffer.concat([Buffer.from([3, 1, 1]), sha256(spki(certs.ee))]))!;
  expect(daneMatches([eeRecord], [certs.ee], 'any.name.test')).toBe(true);
  expect(daneMatches([eeRecord], [certs.leaf, certs.ca], 'mx.ta.test')).toBe(false);
  const taRecord = { usage: 2, selector: 0, mtype: 1, data: sha256(certs.ca.raw) };
  expect(daneMatches([taRecord], [certs.leaf, certs.ca], 'mx.ta.test')).toBe(true);
  expect(daneMatches([taRecord], [certs.leaf, certs.ca], 'other.test')).toBe(false);
  // PKIX-EE (1) is not usable for SMTP.
  expect(daneMatches([{ ...eeRecord, usage: 1 }], [certs.ee], 'mx.ee.test')).toBe(false);
});

it('DANE-EE: a self-signed certificate the record names is delivered to, over TLS, and its events say so', async () => {
  const email = await attempt('ann@ee.test');
  expect(email.status).toBe('delivered');
  expect(await tlsPolicyOf(lastDomain, email.id)).toEqual(['dane', 'dane']);
  expect(ee.received.find((m) => m.to.includes('ann@ee.test'))).toMatchObject({ to: ['ann@ee.test'], secure: true });
});

it('DANE-TA: a certificate issued by the CA the record names, valid for the host, is delivered to', async () => {
  expect((await attempt('bob@ta.test')).status).toBe('delivered');
  expect(ta.received.find((m) => m.to.includes('bob@ta.test'))).toMatchObject({ to: ['bob@ta.test'], secure: true });
});

it('a certificate no record matches gets no mail: the email is deferred with the reason', async () => {
  const email = await attempt('cid@wrong.test');
  expect(email.status).toBe('deferred');
  expect(await lastResponse(email.id)).toBe(DANE_FAILED);
  expect(wrong.received.some((m) => m.to.includes('cid@wrong.test'))).toBe(false);
  const text = await scrapeMetrics(s);
  expect(sampleOf(text, 'postbox_dane_total{result="failed",site="other"}')).toBeGreaterThanOrEqual(1);
  expect(sampleOf(text, 'postbox_dane_total{result="ok",site="other"}')).toBeGreaterThanOrEqual(2);
});

it('TLSA records the resolver did not validate are ignored: delivery stays opportunistic', async () => {
  const email = await attempt('dee@insecure.test');
  expect(email.status).toBe('delivered');
  expect(await tlsPolicyOf(lastDomain, email.id)).toEqual(['none', 'none']);
  expect(wrong.received.some((m) => m.to.includes('dee@insecure.test'))).toBe(true);
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import selfsigned from 'selfsigned';
import { STS_NO_MX, STS_NO_TLS } from '../../src/modules/mail/mx-policy.js';
import { mxMatches, parsePolicy, stsRecordId } from '../../src/lib/mta-sts.js';
import { parseTlsRptRecord } from '../../src/lib/tls-rpt.js';
import { seedDomain } from '../support/factories.js';
import { startTlsMx, type TlsMx } from '../support/mx-provider.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { emailsOf, until } from '../sending/helpers.js';

/**
 * MTA-STS (RFC 8461) with MAIL_TRANSPORT=mx, against local providers: a test CA, an HTTPS server
 * serving each domain's policy (MTA_STS_PORT points fetches at it, OUTBOUND_TLS_CA_FILE trusts
 * the CA), one MX on 127.0.0.2 with a certificate from that CA and one on 127.0.0.3 with a
 * self-signed certificate, both on one port (MX_PORT).
 */

const day = 86_400_000;
let s: TestServer;
let good: TlsMx;
let bad: TlsMx;
let policies: https.Server;
const served = new Map<string, string>();
/** TLS reports POSTed to the HTTPS server. */
const posted: { type: string; body: Buffer }[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-mta-sts-'));

async function leaf(names: string[], ca?: { key: string; cert: string }) {
  const now = new Date();
  const out = await selfsigned.generate([{ name: 'commonName', value: names[0] }], {
    keySize: 2048,
    notBeforeDate: new Date(now.getTime() - day),
    notAfterDate: new Date(now.getTime() + day),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
    ],
    ...(ca ? { ca } : {}),
  });
  return { key: out.private, cert: out.cert };
}


beforeAll(async () => {
  const now = new Date();
  const caOut = await selfsigned.generate([{ name: 'commonName', value: 'Postbox test CA' }], {
    keySize: 2048,
    notBeforeDate: new Date(now.getTime() - day),
    notAfterDate: new Date(now.getTime() + day),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
    ],
  });
  const ca = { key: caOut.private, cert: caOut.cert };
  writeFileSync(path.join(dir, 'ca.pem'), ca.cert);

  policies = https.createServer(await leaf(['mta-sts.enforce.test', 'mta-sts.badcert.test', 'mta-sts.mismatch.test', 'mta-sts.testing.test', 'mta-sts.missing.test', 'reports.enforce.test'], ca), (req, res) => {
    if (req.method === 'POST' && req.url === '/tlsrpt') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        posted.push({ type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
        res.writeHead(201).end();
      });
      return;
    }
    const body = served.get(String(req.headers.host).split(':')[0]);
    if (!body || req.url !== '/.well-known/mta-sts.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((r) => policies.listen(0, '127.0.0.1', r));

  good = await startTlsMx('127.0.0.2', 0, await leaf(['mx.good.test'], ca));
  const port = (good.server.server.address() as AddressInfo).port;
  bad = await startTlsMx('127.0.0.3', port, await leaf(['mx.bad.test']));

  s = await startTestServer({
    env: {
      MAIL_TRANSPORT: 'mx',
      MX_PORT: String(port),
      MX_ALLOW_PRIVATE: 'true',
      MTA_STS_PORT: String((policies.address() as AddressInfo).port),
      OUTBOUND_TLS_CA_FILE: path.join(dir, 'ca.pem'),
      DELIVERY_TIMEOUT_MS: '3000',
      DELIVERY_RETRY_DELAY_SECONDS: '3600',
    },
  });
  s.dns.add('mx.good.test', { type: 'A', address: '127.0.0.2' });
  s.dns.add('mx.bad.test', { type: 'A', address: '127.0.0.3' });
  const site = (domain: string, host: string, policy: string | null) => {
    s.dns.add(domain, { type: 'MX', exchange: host, priority: 10 });
    if (policy === null) return;
    s.dns.add(`_mta-sts.${domain}`, { type: 'TXT', data: 'v=STSv1; id=20261129' });
    s.dns.add(`mta-sts.${domain}`, { type: 'A', address: '127.0.0.1' });
    served.set(`mta-sts.${domain}`, policy);
  };
  site('enforce.test', 'mx.good.test', 'version: STSv1\nmode: enforce\nmx: *.good.test\nmax_age: 86400\n');
  site('badcert.test', 'mx.bad.test', 'version: STSv1\nmode: enforce\nmx: mx.bad.test\nmax_age: 86400\n');
  site('mismatch.test', 'mx.good.test', 'version: STSv1\nmode: enforce\nmx: mx.elsewhere.test\nmax_age: 86400\n');
  site('testing.test', 'mx.bad.test', 'version: STSv1\nmode: testing\nmx: mx.bad.test\nmax_age: 86400\n');
  site('plain.test', 'mx.bad.test', null);
  // TLS reports (RFC 8460): enforce.test's by HTTPS POST, badcert.test's by mail to a domain whose MX is the good one.
  const policyPort = (policies.address() as AddressInfo).port;
  s.dns.add('_smtp._tls.enforce.test', { type: 'TXT', data: `v=TLSRPTv1; rua=https://reports.enforce.test:${policyPort}/tlsrpt` });
  s.dns.add('reports.enforce.test', { type: 'A', address: '127.0.0.1' });
  s.dns.add('_smtp._tls.badcert.test', { type: 'TXT', data: 'v=TLSRPTv1;rua=mailto:tls@reports.test' });
  s.dns.add('reports.test', { type: 'MX', exchange: 'mx.good.test', priority: 10 });
  // A record whose policy file is not there (404): no policy in force.
  site('missing.test', 'mx.bad.test', '');
  served.delete('mta-sts.missing.test');
}, 60_000);
afterAll(async () => {
  await s?.close();
  await Promise.all([good, bad].map((m) => m && new Promise((r) => m.server.close(() => r(null)))));
  await new Promise((r) => policies?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function send(to: string): Promise<string> {
  const domain = await seedDomain(s, { dkim: true });
  const res = await s.rest('POST', '/email', { body: { from: { email: `hi@${domain.name}` }, to: [{ email: to }], subject: 'Policy', text: 'x' } });
  expect(res.status).toBe(202);
  return res.headers.get('x-message-id')!;
}

/** The email once its first attempt is recorded (delivered, or deferred with the reason). */
async function attempted(messageId: string) {
  return until(async () => {
    const [email] = await emailsOf(s, messageId);
    return email && email.status !== 'queued' ? email : null;
  }, 20_000, 'the first attempt');
}

const lastResponse = async (emailId: string) => (await s.app.services.orm.em.fork().execute('select last_response from emails where id = ?', [emailId]))[0].last_response;

it('reads the TXT record and the policy file as RFC 8461 writes them', () => {
  expect(stsRecordId(['v=STSv1; id=abc123;'])).toBe('abc123');
  expect(stsRecordId(['v=STSv1; id=a', 'v=STSv1; id=b'])).toBeNull();
  expect(stsRecordId(['v=spf1 -all'])).toBeNull();
  expect(stsRecordId(['v=STSv1; id=bad-id!'])).toBeNull();
  const policy = parsePolicy('version: STSv1\r\nmode: enforce\r\nmx: mail.example.net\r\nmx: *.example.org\r\nmax_age: 9999999999\r\n', 'x')!;
  expect(policy).toEqual({ id: 'x', mode: 'enforce', mx: ['mail.example.net', '*.example.org'], maxAge: 31_557_600 });
  expect(mxMatches(policy, 'MAIL.example.net.')).toBe(true);
  expect(mxMatches(policy, 'a.example.org')).toBe(true);
  expect(mxMatches(policy, 'a.b.example.org')).toBe(false);
  expect(mxMatches(policy, 'example.org')).toBe(false);
  expect(parsePolicy('version: STSv1\nmode: enforce\nmax_age: 10\n', 'x')).toBeNull();
  expect(parsePolicy(`version: STSv1\nmode: enforce\nmx: a.test\nmax_age: 10\n${'#'.repeat(70_000)}`, 'x')).toBeNull();
});

it('enforce: delivers only to an MX host the policy names, over TLS with a valid certificate', async () => {
  const email = await attempted(await send('ann@enforce.test'));
  expect(email.status).toBe('delivered');
  expect(good.received.find((m) => m.to.includes('ann@enforce.test'))).toMatchObject({ to: ['ann@enforce.test'], secure: true });
});

it('enforce: an MX host whose certificate is not valid gets nothing; the email is deferred with the reason', async () => {
  const email = await attempted(await send('bob@badcert.test'));
  expect(email.status).toBe('deferred');
  expect(await lastResponse(email.id)).toBe(STS_NO_TLS);
  expect(bad.received.some((m) => m.to.includes('bob@badcert.test'))).toBe(false);
});

it('enforce: no MX host the policy names means no connection at all, and a deferral', async () => {
  const before = good.received.length;
  const email = await attempted(await send('cid@mismatch.test'));
  expect(email.status).toBe('deferred');
  expect(await lastResponse(email.id)).toBe(STS_NO_MX);
  expect(good.received.length).toBe(before);
});

it('testing: the failed check is counted, and the mail goes as without a policy', async () => {
  const email = await attempted(await send('dee@testing.test'));
  expect(email.status).toBe('delivered');
  expect(bad.received.find((m) => m.to.includes('dee@testing.test'))).toBeTruthy();
  const text = await scrapeMetrics(s);
  expect(sampleOf(text, 'postbox_mta_sts_total{mode="testing",result="tls_failed",site="other"}')).toBeGreaterThanOrEqual(1);
  expect(sampleOf(text, 'postbox_mta_sts_total{mode="enforce",result="ok",site="other"}')).toBeGreaterThanOrEqual(1);
  expect(sampleOf(text, 'postbox_mta_sts_total{mode="enforce",result="tls_failed",site="other"}')).toBeGreaterThanOrEqual(1);
  expect(sampleOf(text, 'postbox_mta_sts_total{mode="enforce",result="mx_mismatch",site="other"}')).toBeGreaterThanOrEqual(1);
});

it('without a policy, or with a record whose policy cannot be fetched, delivery stays opportunistic', async () => {
  for (const to of ['eve@plain.test', 'fay@missing.test']) {
    const email = await attempted(await send(to));
    expect(email.status).toBe('delivered');
    expect(bad.received.find((m) => m.to.includes(to))).toBeTruthy();
  }
});

describe('TLS reports (RFC 8460)', () => {
  it('reads the _smtp._tls record: one TLSRPTv1 record, its mailto and https URIs', () => {
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=mailto:a@example.com,https://r.example.com/x'])).toEqual({ rua: ['mailto:a@example.com', 'https://r.example.com/x'] });
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=http://insecure.example.com/'])).toBeNull();
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=mailto:a@b.c', 'v=TLSRPTv1; rua=mailto:d@e.f'])).toBeNull();
    expect(parseTlsRptRecord(['v=spf1 -all'])).toBeNull();
    expect(parseTlsRptRecord(['v=TLSRPTv1; rua=mailto:%E0%A4%A@x.test,mailto:ok@x.test'])).toEqual({ rua: ['mailto:ok@x.test'] });
  });

  it("sends each domain that asks the day's sessions under its policy: by HTTPS, and by mail as multipart/report", async () => {
    // Sessions are counted in the process and written every ten seconds.
    const rows = await until(async () => {
      const found = (await s.app.services.orm.em.fork().execute(`select policy_domain from tls_sessions`)) as { policy_domain: string }[];
      return found.length >= 2 && found;
    }, 20_000, 'the sessions counted');
    // Only the domains with a record: plain.test, testing.test and the others ask for nothing.
    expect(new Set(rows.map((r) => r.policy_domain))).toEqual(new Set(['enforce.test', 'badcert.test']));
    const day = new Date().toISOString().slice(0, 10);
    await s.app.services.boss.send('tls-report.send', { day });

    const post = await until(async () => posted[0], 20_000, 'the HTTPS report');
    expect(post.type).toBe('application/tlsrpt+gzip');
    const report = JSON.parse(gunzipSync(post.body).toString('utf8'));
    expect(report).toMatchObject({
      'date-range': { 'start-datetime': `${day}T00:00:00Z`, 'end-datetime': `${day}T23:59:59Z` },
      'contact-info': expect.any(String),
      policies: [
        {
          policy: { 'policy-type': 'sts', 'policy-string': ['version: STSv1', 'mode: enforce', 'mx: *.good.test', 'max_age: 86400'], 'policy-domain': 'enforce.test', 'mx-host': ['mx.good.test'] },
          summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 0 },
          'failure-details': [],
        },
      ],
    });

    const mail = await until(async () => good.received.find((m) => m.to.includes('tls@reports.test')), 20_000, 'the mailed report');
    expect(mail.raw).toMatch(/^TLS-Report-Domain: badcert\.test\r$/m);
    expect(mail.raw).toMatch(/^Content-Type: multipart\/report; report-type="tlsrpt"/m);
    const attachment = /Content-Disposition: attachment; filename="[^"]*!badcert\.test![^"]*\.json\.gz"\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(mail.raw)![1];
    const mailed = JSON.parse(gunzipSync(Buffer.from(attachment.replace(/\r\n/g, ''), 'base64')).toString('utf8'));
    expect(mailed.policies).toEqual([
      {
        policy: { 'policy-type': 'sts', 'policy-string': ['version: STSv1', 'mode: enforce', 'mx: mx.bad.test', 'max_age: 86400'], 'policy-domain': 'badcert.test', 'mx-host': ['mx.bad.test'] },
        summary: { 'total-successful-session-count': 0, 'total-failure-session-count': 1 },
        'failure-details': [{ 'result-type': 'certificate-not-trusted', 'receiving-mx-hostname': 'mx.bad.test', 'failed-session-count': 1 }],
      },
    ]);
    // Reported, the counts are gone.
    await until(async () => (await s.app.services.orm.em.fork().execute('select 1 from tls_sessions')).length === 0, 10_000, 'the counts cleared');
    expect(sampleOf(await scrapeMetrics(s), 'postbox_tls_reports_total{via="https",result="sent"}')).toBe(1);
  }, 60_000);
});

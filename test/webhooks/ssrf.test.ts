import type { Dns } from '../../src/lib/dns.js';
import { postWebhook } from '../../src/lib/webhook-http.js';
import { signatureHeaders } from '../../src/lib/webhook-signature.js';
import { classifyAddress } from '../../src/lib/public-address.js';
import { encrypt } from '../../src/lib/secrets.js';
import { Domain } from '../../src/modules/domains/domain.entity.js';
import { Webhook, WebhookAttempt } from '../../src/modules/webhooks/webhook.entity.js';
import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A resolver whose answers the test scripts: the edge of the world, so a stub is fine here. */
function scriptedDns(answers: string[][]): Dns & { calls: number } {
  const dns = {
    calls: 0,
    async a() {
      const answer = answers[Math.min(dns.calls, answers.length - 1)];
      dns.calls++;
      return answer;
    },
    txt: async () => [],
    cname: async () => [],
    mx: async () => [],
    ptr: async () => [],
    exists: async () => 'exists' as const,
  };
  return dns;
}

let r: Receiver;
beforeAll(async () => {
  r = await startReceiver();
  r.secretFor('*', 'unit-secret');
});
afterAll(async () => {
  await r.close();
});
beforeEach(() => r.reset());

const noDns = scriptedDns([[]]);
function post(url: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) {
  const body = JSON.stringify({ type: 'webhook.test', message: 'hi', created_at: new Date().toISOString() });
  return postWebhook({
    url,
    body,
    headers: signatureHeaders('unit-secret', body, 'msg_unit', new Date()),
    timeoutMs: 3000,
    allowPrivate: true,
    dns: noDns,
    ...extra,
  });
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });
});

describe('postWebhook', () => {
  it('posts the body with both signatures and reports a 2xx', async () => {
    r.respond('/ok', { status: 204 });
    const res = await post(r.url('/ok'));
    expect(res).toMatchObject({ ok: true, status: 204, error: null, permanent: false, gone: false, retryAfterSeconds: null });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    const [req] = r.received('/ok');
    expect(req.verified).toBe(true);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json.type).toBe('webhook.test');
  });

  it('classifies failures: 500 retryable, 400 permanent, 410 gone, 429 with Retry-After, 3xx not followed', async () => {
    r.respond('/e500', { status: 500, body: 'boom' });
    r.respond('/e400', { status: 400 });
    r.respond('/e410', { status: 410 });
    r.respond('/e429', { status: 429, retryAfter: 120 });
    r.respond('/e429d', { status: 429, retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    r.respond('/e302', { status: 302, headers: { location: r.url('/ok') } });
    expect(await post(r.url('/e500'))).toMatchObject({ ok: false, status: 500, excerpt: 'boom', error: 'HTTP 500', permanent: false });
    expect(await post(r.url('/e400'))).toMatchObject({ ok: false, status: 400, permanent: true, gone: false });
    expect(await post(r.url('/e410'))).toMatchObject({ ok: false, status: 410, permanent: true, gone: true });
    expect(await post(r.url('/e429'))).toMatchObject({ ok: false, status: 429, permanent: false, retryAfterSeconds: 120 });
    const dated = await post(r.url('/e429d'));
    expect(dated.retryAfterSeconds).toBeGreaterThanOrEqual(55);
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(61);
    expect(await post(r.url('/e302'))).toMatchObject({ ok: false, status: 302, permanent: false });
    expect(r.received('/ok')).toHaveLength(0);
  });

  it('gives up after the timeout', async () => {
    r.respond('/slow', { delayMs: 1500 });
    const res = await post(r.url('/slow'), { timeoutMs: 300 });
    expect(res).toMatchObject({ ok: false, status: null, error: 'timeout after 300 ms', permanent: false });
    expect(res.durationMs).toBeLessThan(1400);
  });

  it('keeps a 1000-character excerpt and reads at most about 64 KB', async () => {
    r.respond('/big', { status: 500, body: 'x'.repeat(5 * 1024 * 1024) });
    const res = await post(r.url('/big'));
    expect(res.status).toBe(500);
    expect(res.excerpt).toHaveLength(1000);
  });

  it('refuses non-http URLs and invalid URLs as permanent failures', async () => {
    expect(await post('ftp://example.com/')).toMatchObject({ ok: false, status: null, permanent: true });
    expect(await post('not a url')).toMatchObject({ ok: false, status: null, error: 'invalid URL', permanent: true });
  });

  it('a header node refuses to send is a permanent failure, not a throw', async () => {
    const res = await post(r.url('/bad'), { headers: { 'x-bad': 'a\nb' } });
    expect(res).toMatchObject({ ok: false, status: null, permanent: true });
    expect(res.error).toMatch(/^invalid request: /);
    expect(r.received('/bad')).toHaveLength(0);
  });

  it('a DNS failure is permanent', async () => {
    const res = await post('http://nowhere.invalid/', { dns: scriptedDns([[]]) });
    expect(res).toMatchObject({ ok: false, status: null, error: 'DNS: no address for nowhere.invalid', permanent: true });
  });

  it('a connection refused is retryable', async () => {
    const closed = await startReceiver();
    const url = closed.url('/');
    await closed.close();
    const res = await post(url);
    expect(res).toMatchObject({ ok: false, status: null, permanent: false });
    expect(res.error).toMatch(/^connection failed: ECONNREFUSED/);
  });

  it('resolves names through the given Dns, and reaches private targets when allowed', async () => {
    const dns = scriptedDns([['127.0.0.1']]);
    const res = await post(`http://hooks.example:${r.port}/named`, { dns });
    expect(res.ok).toBe(true);
    expect(dns.calls).toBe(1);
    expect(r.received('/named')).toHaveLength(1);
  });

  it.each(['http://127.0.0.1:1/', 'http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/', 'http://[::ffff:127.0.0.1]/'])(
    'refuses the literal %s unless allowed',
    async (url) => {
      const res = await post(url.replace(':1/', `:${r.port}/`), { allowPrivate: false });
      expect(res).toMatchObject({ ok: false, status: null, permanent: true });
      expect(res.error).toMatch(/^address .* is (loopback|private|link-local)$/);
    },
  );

  it('checks the address actually connected to: a rebinding resolver cannot reach loopback', async () => {
    // The first answer is public (what a validation-time lookup would see), the next is loopback.
    const dns = scriptedDns([['93.184.216.34'], ['127.0.0.1']]);
    expect(await dns.a('rebind.example')).toEqual(['93.184.216.34']);
    const res = await post(`http://rebind.example:${r.port}/rebind`, { dns, allowPrivate: false });
    expect(res).toMatchObject({ ok: false, status: null, error: 'address 127.0.0.1 is loopback', permanent: true });
    expect(dns.calls).toBe(2);
    expect(r.received('/rebind')).toHaveLength(0);
  });

  it('connects only to the public addresses of a mixed answer', async () => {
    const dns = scriptedDns([['127.0.0.1', '10.0.0.1']]);
    const res = await post(`http://mixed.example:${r.port}/mixed`, { dns, allowPrivate: false });
    expect(res.error).toBe('address 127.0.0.1 is loopback');
    expect(r.received('/mixed')).toHaveLength(0);
  });
});

describe('creating and updating webhooks with WEBHOOK_ALLOW_PRIVATE=false', () => {
  let s: TestServer;
  let domainId: string;
  const invalidUrl = (message: string) => ({ message: 'The given data was invalid.', errors: { url: [message] } });
  const refused = (why: string) => invalidUrl(`The url could not be reached by the test request: ${why}.`);

  beforeAll(async () => {
    s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_TIMEOUT_MS: '1500' } });
    domainId = (await seedDomain(s)).id;
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = (url: string) =>
    s.rest('POST', '/webhooks', { body: { url, name: 'SSRF', events: ['activity.sent'], domain_id: domainId } });

  it.each([
    ['http://127.0.0.1:PORT/local', 'address 127.0.0.1 is loopback'],
    ['http://10.0.0.1/', 'address 10.0.0.1 is private'],
    ['http://[::1]:PORT/', 'address ::1 is loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'address 169.254.169.254 is link-local'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'address ::ffff:7f00:1 is loopback'],
    ['http://0.0.0.0:PORT/', 'address 0.0.0.0 is unspecified'],
  ])('%s: 422 on url, and nothing reaches the receiver', async (template, why) => {
    const res = await create(template.replace('PORT', String(r.port)));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused(why));
    expect(r.requests).toHaveLength(0);
  });

  it('a hostname resolving to loopback (through the service resolver) is refused', async () => {
    s.dns.add('loopback-hook.example.test', { type: 'A', address: '127.0.0.1' });
    const res = await create(`http://loopback-hook.example.test:${r.port}/named`);
    expect(res.body).toEqual(refused('address 127.0.0.1 is loopback'));
    expect(r.requests).toHaveLength(0);
  });

  it('a hostname that does not resolve is refused with the DNS error', async () => {
    const res = await create('http://missing-hook.example.test/');
    expect(res.body).toEqual(refused('DNS: no address for missing-hook.example.test'));
  });

  it('a record that rebinds to loopback after looking public is refused at connect time', async () => {
    const name = 'rebind-hook.example.test';
    s.dns.add(name, { type: 'A', address: '93.184.216.34' });
    expect(await s.app.services.dns.a(name)).toEqual(['93.184.216.34']);
    s.dns.remove(name);
    s.dns.add(name, { type: 'A', address: '127.0.0.1' });
    const res = await create(`http://${name}:${r.port}/rebind`);
    expect(res.body).toEqual(refused('address 127.0.0.1 is loopback'));
    expect(r.requests).toHaveLength(0);
  });

  it('updating to a private url is refused too, and the refusal is logged', async () => {
    // Seeded straight into the database: no public receiver exists for a create to succeed.
    const em = s.app.services.orm.em.fork();
    const webhook = em.create(Webhook, {
      account: (await em.findOneOrFail(Domain, { id: domainId }, { populate: ['account'] })).account,
      domain: em.getReference(Domain, domainId),
      name: 'Seeded',
      url: 'https://hooks.example.com/in',
      events: ['activity.sent'],
      secret_enc: encrypt(s.app.services.config.APP_SECRET, 'seeded-secret'),
    } as never);
    await em.flush();
    const res = await s.rest('PUT', `/webhooks/${webhook.id}`, { body: { url: `http://127.0.0.1:${r.port}/` } });
    expect(res.body).toEqual(refused('address 127.0.0.1 is loopback'));
    expect(r.requests).toHaveLength(0);
    const log = await em.fork().find(WebhookAttempt, { webhook_id: webhook.id });
    expect(log.map((a) => [a.type, a.success, a.status, a.error])).toEqual([
      ['webhook.test', false, null, 'address 127.0.0.1 is loopback'],
    ]);
    const after = await s.rest('GET', `/webhooks/${webhook.id}`);
    expect(after.body.data.url).toBe('https://hooks.example.com/in');
  });
});

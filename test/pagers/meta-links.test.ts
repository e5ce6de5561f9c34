import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { assignNumberTo, randomE164 } from '../support/sms.js';

/**
 * COMPAT.md Pagers: every full pager (meta with last_page and total), not only /v1/domains,
 * lists its pages in meta.links; the lists SPEC.md leaves open answer with the full pager.
 * Each list gets 11 rows in a scope of its own (a fresh account or domain), so page 2 of 10 is
 * the last of two pages and the totals are exact.
 */
let s: TestServer;
let r: Receiver;
const TEST_SECRET = 'pager-test-secret';
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TEST_SECRET: TEST_SECRET } });
  r = await startReceiver();
  r.secretFor('*', TEST_SECRET);
});
afterAll(async () => {
  await r?.close();
  await s?.close();
});

const ROWS = 11;
const PAGER_KEYS = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'];
const later = () => Math.floor(Date.now() / 1000) + 3600;

/** What the domains test asserts of meta.links, for page 2 of 2 pages of 10 over 11 rows. */
async function expectPageList(path: string, query: string, token?: string) {
  const res = await s.rest('GET', `${path}?${query}${query ? '&' : ''}limit=10&page=2`, { token });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
  const { meta, links, data } = res.body;
  expect(Object.keys(meta).sort()).toEqual(PAGER_KEYS);
  expect(meta).toMatchObject({ current_page: 2, from: 11, to: 11, last_page: 2, per_page: 10, total: ROWS });
  expect(data).toHaveLength(1);
  expect(meta.links).toHaveLength(meta.last_page + 2);
  expect(meta.links[0]).toEqual({ url: links.prev, label: '&laquo; Previous', active: false });
  expect(meta.links.at(-1)).toEqual({ url: links.next, label: 'Next &raquo;', active: false });
  expect(links.next).toBeNull();
  expect(meta.links[1]).toEqual({ url: expect.stringMatching(/page=1$/), label: '1', active: false });
  expect(meta.links[2]).toEqual({ url: expect.stringMatching(/page=2$/), label: '2', active: true });
  expect(meta.links[1].url).toBe(links.prev);
  expect(meta.path).toMatch(new RegExp(`^http://[^/?]+/v1${path}$`));
  return res.body;
}

function ok(res: { status: number; text: string }, status = 201) {
  if (res.status !== status) throw new Error(`${res.status} ${res.text}`);
}

describe('meta.links on every full pager', () => {
  it('GET /v1/token', async () => {
    const a = await createAccount(s, 'Pager tokens');
    // The account's first token is one row; ten more make eleven.
    for (let i = 1; i < ROWS; i++) ok(await s.rest('POST', '/token', { token: a.token, body: { name: `t${i}`, scopes: ['domains_read'] } }), 200);
    await expectPageList('/token', '', a.token);
  });

  it('GET /v1/invites', async () => {
    const a = await createAccount(s, 'Pager invites');
    for (let i = 0; i < ROWS; i++) {
      ok(await s.rest('POST', '/users', { token: a.token, body: { email: `pager-inv-${i}-${Date.now()}@example.com`, role: 'manager' } }), 200);
    }
    await expectPageList('/invites', '', a.token);
  });

  it('GET /v1/inbound, within domain_id', async () => {
    const d = await seedDomain(s);
    for (let i = 0; i < ROWS; i++) {
      ok(await s.rest('POST', '/inbound', { body: { domain_id: d.id, name: `r${i}`, domain_enabled: false, forwards: [{ type: 'email', value: 'team@example.com' }] } }));
    }
    const body = await expectPageList('/inbound', `domain_id=${d.id}`);
    expect(body.links.first).toContain(`domain_id=${d.id}`);
  });

  it('GET /v1/sms-numbers, and its paused filter counts what it shows', async () => {
    const a = await createAccount(s, 'Pager numbers');
    const accountId = await accountIdOf(s, a.token);
    const numbers = [];
    for (let i = 0; i < ROWS; i++) numbers.push(await assignNumberTo(s, accountId, randomE164()));
    await expectPageList('/sms-numbers', '', a.token);
    ok(await s.rest('PUT', `/sms-numbers/${numbers[0].id}`, { token: a.token, body: { paused: true } }), 200);
    const paused = await s.rest('GET', '/sms-numbers?paused=true', { token: a.token });
    expect(paused.body.data.map((n: { id: string }) => n.id)).toEqual([numbers[0].id]);
    expect(paused.body.meta).toMatchObject({ total: 1, last_page: 1 });
    const active = await s.rest('GET', '/sms-numbers?paused=false', { token: a.token });
    expect(active.body.meta.total).toBe(ROWS - 1);
  });

  it('GET /v1/sms-messages', async () => {
    const a = await createAccount(s, 'Pager texts');
    const number = await assignNumberTo(s, await accountIdOf(s, a.token), randomE164());
    for (let i = 0; i < ROWS; i++) {
      ok(await s.rest('POST', '/sms', { token: a.token, body: { from: number.telephone_number, to: [randomE164()], text: `n${i}` } }), 202);
    }
    await expectPageList('/sms-messages', '', a.token);
  });

  it('GET /v1/message-schedules, within domain_id and status', async () => {
    const d = await seedDomain(s, { dkim: true });
    for (let i = 0; i < ROWS; i++) {
      const res = await s.rest('POST', '/email', {
        body: { from: { email: `sender@${d.name}` }, to: [{ email: `r${i}@example.com` }], subject: `s${i}`, text: 'x', send_at: later() },
      });
      ok(res, 202);
    }
    await expectPageList('/message-schedules', `domain_id=${d.id}`);
    // The filter applies to total as well as to the rows: none of them is sent.
    const sent = await s.rest('GET', `/message-schedules?domain_id=${d.id}&status=sent`);
    expect(sent.body.data).toEqual([]);
    expect(sent.body.meta).toMatchObject({ total: 0, last_page: 1 });
  });

  it('GET /v1/webhooks, within domain_id', async () => {
    const d = await seedDomain(s);
    for (let i = 0; i < ROWS; i++) {
      ok(await s.rest('POST', '/webhooks', { body: { url: r.url(`/pager-${i}`), name: `h${i}`, events: ['activity.sent'], domain_id: d.id } }));
    }
    await expectPageList('/webhooks', `domain_id=${d.id}`);
  });
});

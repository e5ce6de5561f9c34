import pg from 'pg';
import { encrypt } from '../../src/lib/secrets.js';
import { Account } from '../../src/modules/accounts/account.entity.js';
import { SmsNumber } from '../../src/modules/sms-numbers/sms-number.entity.js';
import { Webhook, WebhookAttempt } from '../../src/modules/webhooks/webhook.entity.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { assignNumber, type AssignedNumber } from './support.js';

const TEST_SECRET = 'sms-crud-test-signing-secret-7';
let s: TestServer;
let r: Receiver;
let db: pg.Client;
let accountId: string;
let number: AssignedNumber;

beforeAll(async () => {
  s = await startTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TEST_SECRET: TEST_SECRET, WEBHOOK_TIMEOUT_MS: '2000' },
  });
  r = await startReceiver();
  r.secretFor('*', TEST_SECRET);
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  accountId = await accountIdOf(s);
  number = await assignNumber(s, accountId);
});
afterAll(async () => {
  await db?.end();
  await r?.close();
  await s?.close();
});

const KEYS = ['created_at', 'enabled', 'events', 'id', 'name', 'secret', 'sms_number', 'updated_at', 'url'];
const NUMBER_KEYS = ['created_at', 'id', 'paused', 'telephone_number'];
const NOT_FOUND = { message: 'Resource not found.' };
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
let seq = 0;
const path = () => `/sms-hook-${++seq}`;

async function create(body: Record<string, unknown> = {}, token?: string) {
  return s.rest('POST', '/sms-webhooks', {
    token,
    body: { url: r.url(path()), name: 'SMS hook', events: ['sms.sent'], sms_number_id: number.id, ...body },
  });
}

async function created(body: Record<string, unknown> = {}, token?: string) {
  const res = await create(body, token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

async function attempts(webhookId: string) {
  const { rows } = await db.query('select * from webhook_attempts where webhook_id = $1 order by attempted_at', [webhookId]);
  return rows;
}

describe('POST /v1/sms-webhooks', () => {
  it('sends the signed webhook.test request, then answers 201 with the record', async () => {
    const p = path();
    const res = await create({ url: r.url(p), name: 'Texts', events: ['sms.sent', 'sms.failed'] });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toMatchObject({ url: r.url(p), name: 'Texts', events: ['sms.sent', 'sms.failed'], enabled: true });
    expect(d.id).toEqual(expect.any(String));
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect(d.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(d.sms_number).sort()).toEqual(NUMBER_KEYS);
    expect(d.sms_number).toEqual(number);
    expect(d.sms_number.created_at).toMatch(ISO);

    expect(r.received(p)).toHaveLength(1);
    const [req] = r.received(p);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(Object.keys(req.json).sort()).toEqual(['created_at', 'message', 'type']);
    expect(req.json.type).toBe('webhook.test');
    expect(req.json.created_at).toMatch(ISO);
    expect(req).toMatchObject({ verified: true, signatureOk: true, standardOk: true, secret: TEST_SECRET });
    expect(req.headers.signature).toMatch(/^[0-9a-f]{64}$/);

    const log = await attempts(d.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ delivery_id: null, type: 'webhook.test', success: true, status: 200 });
    const { rows } = await db.query('select * from webhooks where id = $1', [d.id]);
    expect(rows[0]).toMatchObject({ kind: 'sms', domain_id: null, sms_number_id: number.id, account_id: accountId });
    expect(JSON.stringify(rows[0])).not.toContain(d.secret);
  });

  it('duplicate event kinds are stored once; enabled can be false and the test is still sent', async () => {
    const p = path();
    const d = await created({ url: r.url(p), events: ['sms.sent', 'sms.delivered', 'sms.sent'], enabled: false });
    expect(d.events).toEqual(['sms.sent', 'sms.delivered']);
    expect(d.enabled).toBe(false);
    expect(r.received(p)).toHaveLength(1);
  });

  it.each([
    [{ status: 500 }, 'The url answered the test request with HTTP 500; a 2xx answer is required.'],
    [{ status: 404 }, 'The url answered the test request with HTTP 404; a 2xx answer is required.'],
    [{ delayMs: 4500 }, 'The url could not be reached by the test request: timeout after 2000 ms.'],
  ])('a receiver answering %j: 422 on url and nothing saved', async (behaviour, message) => {
    const p = path();
    r.respond(p, behaviour);
    const res = await create({ url: r.url(p) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ url: [message] }));
    expect(r.received(p)).toHaveLength(1);
    const { rows } = await db.query('select id from webhooks where url = $1', [r.url(p)]);
    expect(rows).toHaveLength(0);
  });

  it('the same URL twice on a number is a 422 on url, without calling it again; another number may use it', async () => {
    const p = path();
    await created({ url: r.url(p) });
    const again = await create({ url: r.url(p) });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(invalid({ url: ['The url has already been taken.'] }));
    expect(r.received(p)).toHaveLength(1);
    const second = await assignNumber(s, accountId);
    const elsewhere = await create({ url: r.url(p), sms_number_id: second.id });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.data.sms_number.id).toBe(second.id);
  });

  it.each([
    [{ events: ['sms.sent', 'sms.nope'] }, 'events.1', 'The selected events.1 is invalid.'],
    [{ events: ['activity.sent'] }, 'events.0', 'The selected events.0 is invalid.'],
    [{ events: ['webhook.test'] }, 'events.0', 'The selected events.0 is invalid.'],
    [{ events: [] }, 'events', 'The events field is required.'],
    [{ events: undefined }, 'events', 'The events field is required.'],
    [{ events: 'sms.sent' }, 'events', 'The events must be an array.'],
    [{ url: 'ftp://example.com/hook' }, 'url', 'The url format is invalid.'],
    [{ url: 'not a url' }, 'url', 'The url format is invalid.'],
    [{ url: `http://example.com/${'a'.repeat(173)}` }, 'url', 'The url may not be greater than 191 characters.'],
    [{ url: undefined }, 'url', 'The url field is required.'],
    [{ url: 42 }, 'url', 'The url must be a string.'],
    [{ name: 'n'.repeat(192) }, 'name', 'The name may not be greater than 191 characters.'],
    [{ name: '  ' }, 'name', 'The name field is required.'],
    [{ name: undefined }, 'name', 'The name field is required.'],
    [{ sms_number_id: undefined }, 'sms_number_id', 'The sms number id field is required.'],
    [{ sms_number_id: 'nope' }, 'sms_number_id', 'The selected sms number id is invalid.'],
    [{ enabled: 'yes' }, 'enabled', 'The enabled field must be true or false.'],
  ])('%j: 422 on %s', async (body, key, message) => {
    const before = r.requests.length;
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ [key]: [message] }));
    expect(r.requests.length).toBe(before);
  });

  it('a URL at exactly 191 characters is accepted', async () => {
    const url = r.url(`/${'u'.repeat(191 - r.url('/').length)}`);
    expect(url).toHaveLength(191);
    expect((await created({ url })).url).toBe(url);
  });
});

describe('GET /v1/sms-webhooks', () => {
  it('lists the webhooks of one number, newest first, in a plain data envelope', async () => {
    const n = await assignNumber(s, accountId);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push((await created({ sms_number_id: n.id, name: `h${i}` })).id);
    await created();
    const res = await s.rest('GET', `/sms-webhooks?sms_number_id=${n.id}&limit=10&page=2`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((w: any) => w.id)).toEqual([ids[0]]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(KEYS);
    const first = await s.rest('GET', `/sms-webhooks?sms_number_id=${n.id}`);
    expect(first.body.data.map((w: any) => w.id)).toEqual([...ids].reverse());
    const ten = await s.rest('GET', `/sms-webhooks?sms_number_id=${n.id}&limit=10`);
    expect(ten.body.data).toHaveLength(10);
  });

  it('422 without sms_number_id or with a bad limit or page; 404 for an unknown number', async () => {
    expect((await s.rest('GET', '/sms-webhooks')).body).toEqual(invalid({ sms_number_id: ['The sms number id field is required.'] }));
    const low = await s.rest('GET', `/sms-webhooks?sms_number_id=${number.id}&limit=5`);
    expect(low.status).toBe(422);
    expect(low.body).toEqual(invalid({ limit: ['The limit must be at least 10.'] }));
    const high = await s.rest('GET', `/sms-webhooks?sms_number_id=${number.id}&limit=101`);
    expect(high.body).toEqual(invalid({ limit: ['The limit may not be greater than 100.'] }));
    const page = await s.rest('GET', `/sms-webhooks?sms_number_id=${number.id}&page=0`);
    expect(page.body).toEqual(invalid({ page: ['The page must be at least 1.'] }));
    const unknown = await s.rest('GET', '/sms-webhooks?sms_number_id=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/sms-webhooks/{id}', () => {
  it('answers the record, and 404 for an unknown id or an email webhook', async () => {
    const w = await created({ name: 'One' });
    const res = await s.rest('GET', `/sms-webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: w });
    const missing = await s.rest('GET', '/sms-webhooks/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);

    const domain = await seedDomain(s);
    const email = await s.rest('POST', '/webhooks', {
      body: { url: r.url(path()), name: 'Email', events: ['activity.sent'], domain_id: domain.id },
    });
    expect(email.status).toBe(201);
    expect((await s.rest('GET', `/sms-webhooks/${email.body.data.id}`)).status).toBe(404);
    expect((await s.rest('PUT', `/sms-webhooks/${email.body.data.id}`, { body: { name: 'x' } })).status).toBe(404);
    expect((await s.rest('DELETE', `/sms-webhooks/${email.body.data.id}`)).status).toBe(404);
    // Neither surface reaches the other kind.
    expect((await s.rest('GET', `/webhooks/${w.id}`)).status).toBe(404);
    expect((await s.rest('GET', `/webhooks/${email.body.data.id}`)).status).toBe(200);
  });
});

describe('PUT /v1/sms-webhooks/{id}', () => {
  // SPEC.md: every update sends the test request, not only a new url or re-enabling.
  it('name, events and enabled=false only: each update sends the test request', async () => {
    const p = path();
    const w = await created({ url: r.url(p) });
    const res = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { name: 'Renamed', events: ['sms.delivered', 'sms.failed'], enabled: false } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(KEYS);
    expect(res.body.data).toMatchObject({ name: 'Renamed', events: ['sms.delivered', 'sms.failed'], enabled: false, url: w.url, secret: w.secret });
    expect(res.body.data.sms_number).toEqual(number);
    expect(r.received(p)).toHaveLength(2);
    const empty = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ name: 'Renamed', enabled: false });
    expect(r.received(p)).toHaveLength(3);
  });

  it('a new url is tested first, and the attempt is logged', async () => {
    const w = await created();
    const p = path();
    const res = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { url: r.url(p) } });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe(r.url(p));
    expect(r.received(p)).toHaveLength(1);
    expect(r.received(p)[0]).toMatchObject({ verified: true, secret: TEST_SECRET });
    expect(r.received(p)[0].json.type).toBe('webhook.test');
    expect(await attempts(w.id)).toHaveLength(2);
  });

  it('a new url that fails its test: 422, nothing changed, the failed attempt logged', async () => {
    const w = await created({ name: 'Keep' });
    const p = path();
    r.respond(p, { status: 503, body: 'down' });
    const res = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { url: r.url(p), name: 'Changed' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ url: ['The url answered the test request with HTTP 503; a 2xx answer is required.'] }));
    const after = (await s.rest('GET', `/sms-webhooks/${w.id}`)).body.data;
    expect(after).toMatchObject({ url: w.url, name: 'Keep' });
    const log = await attempts(w.id);
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({ delivery_id: null, type: 'webhook.test', success: false, status: 503, response_excerpt: 'down' });
  });

  it('re-enabling tests the url and lifts an automatic pause', async () => {
    const p = path();
    const w = await created({ url: r.url(p) });
    await db.query(`update webhooks set enabled = false, paused_reason = 'retry_window', paused_at = now() where id = $1`, [w.id]);
    const on = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.enabled).toBe(true);
    expect(r.received(p)).toHaveLength(2);
    const { rows } = await db.query('select enabled, paused_reason, paused_at from webhooks where id = $1', [w.id]);
    expect(rows[0]).toEqual({ enabled: true, paused_reason: null, paused_at: null });
    // Already on: enabled=true again is an update like any other, tested too.
    await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { enabled: true } });
    expect(r.received(p)).toHaveLength(3);
  });

  it('re-enabling against a failing url: 422 and it stays off', async () => {
    const p = path();
    const w = await created({ url: r.url(p), enabled: false });
    r.respond(p, { status: 500 });
    const res = await s.rest('PUT', `/sms-webhooks/${w.id}`, { body: { enabled: true } });
    expect(res.status).toBe(422);
    expect(res.body.errors.url).toEqual(['The url answered the test request with HTTP 500; a 2xx answer is required.']);
    expect((await s.rest('GET', `/sms-webhooks/${w.id}`)).body.data.enabled).toBe(false);
  });

  it('422 rules: taken url, bad events, bad url, blank or long name, bad types; 404 for an unknown id', async () => {
    const a = await created();
    const b = await created();
    const put = (body: Record<string, unknown>, id = b.id) => s.rest('PUT', `/sms-webhooks/${id}`, { body });
    expect((await put({ url: a.url })).body).toEqual(invalid({ url: ['The url has already been taken.'] }));
    expect((await put({ events: ['sms.nope'] })).body).toEqual(invalid({ 'events.0': ['The selected events.0 is invalid.'] }));
    expect((await put({ events: [] })).body).toEqual(invalid({ events: ['The events field is required.'] }));
    expect((await put({ events: 'sms.sent' })).body).toEqual(invalid({ events: ['The events must be an array.'] }));
    expect((await put({ url: 'gopher://x' })).body).toEqual(invalid({ url: ['The url format is invalid.'] }));
    expect((await put({ url: `http://example.com/${'a'.repeat(173)}` })).body).toEqual(
      invalid({ url: ['The url may not be greater than 191 characters.'] }),
    );
    expect((await put({ name: '' })).body).toEqual(invalid({ name: ['The name field is required.'] }));
    expect((await put({ name: 'x'.repeat(192) })).body).toEqual(invalid({ name: ['The name may not be greater than 191 characters.'] }));
    expect((await put({ enabled: 'no' })).body).toEqual(invalid({ enabled: ['The enabled field must be true or false.'] }));
    const unchanged = (await s.rest('GET', `/sms-webhooks/${b.id}`)).body.data;
    expect(unchanged).toMatchObject({ url: b.url, name: b.name, events: b.events });
    // Its own url again is not "taken".
    expect((await put({ url: b.url })).status).toBe(200);
    const missing = await put({ name: 'x' }, 'nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /v1/sms-webhooks/{id}', () => {
  it('answers an empty 204, then 404', async () => {
    const w = await created();
    const res = await s.rest('DELETE', `/sms-webhooks/${w.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/sms-webhooks/${w.id}`)).status).toBe(404);
    const again = await s.rest('DELETE', `/sms-webhooks/${w.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});

describe('access', () => {
  it('401 without a token and 403 without an SMS scope on every route; sms_read reads but cannot write', async () => {
    const w = await created();
    const body = { url: r.url(path()), name: 'x', events: ['sms.sent'], sms_number_id: number.id };
    const reads: Array<[string, string]> = [
      ['GET', `/sms-webhooks?sms_number_id=${number.id}`],
      ['GET', `/sms-webhooks/${w.id}`],
    ];
    const writes: Array<[string, string]> = [
      ['POST', '/sms-webhooks'],
      ['PUT', `/sms-webhooks/${w.id}`],
      ['DELETE', `/sms-webhooks/${w.id}`],
    ];
    const none = await tokenWith(s, ['webhooks_full', 'email_full']);
    const reader = await tokenWith(s, ['sms_read']);
    for (const [method, p] of [...reads, ...writes]) {
      const opts = { body: method === 'GET' || method === 'DELETE' ? undefined : body };
      const anon = await s.rest(method, p, { ...opts, token: null });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ message: 'Unauthenticated.' });
      const denied = await s.rest(method, p, { ...opts, token: none });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: expect.any(String) });
    }
    for (const [method, p] of reads) expect((await s.rest(method, p, { token: reader })).status).toBe(200);
    for (const [method, p] of writes) {
      const res = await s.rest(method, p, { token: reader, body: method === 'DELETE' ? undefined : body });
      expect(res.status).toBe(403);
    }
    const writer = await tokenWith(s, ['sms_full']);
    expect((await s.rest('GET', `/sms-webhooks/${w.id}`, { token: writer })).status).toBe(200);
    expect((await create({}, writer)).status).toBe(201);
  });

  it('another account sees none of it: 404 on ids and numbers, 422 for a foreign number', async () => {
    const other = await createAccount(s, 'SMS webhook neighbour');
    const w = await created();
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await s.rest(method, `/sms-webhooks/${w.id}`, { token: other.token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await s.rest('GET', `/sms-webhooks?sms_number_id=${number.id}`, { token: other.token })).status).toBe(404);
    const stolen = await create({ sms_number_id: number.id }, other.token);
    expect(stolen.body).toEqual(invalid({ sms_number_id: ['The selected sms number id is invalid.'] }));

    const theirNumber = await assignNumber(s, other.id);
    const theirs = await created({ sms_number_id: theirNumber.id, url: w.url }, other.token);
    const list = await s.rest('GET', `/sms-webhooks?sms_number_id=${theirNumber.id}`, { token: other.token });
    expect(list.body.data.map((x: any) => x.id)).toEqual([theirs.id]);
    expect((await s.rest('GET', `/sms-webhooks/${theirs.id}`)).status).toBe(404);
    expect((await s.rest('GET', `/sms-webhooks?sms_number_id=${theirNumber.id}`)).status).toBe(404);
    expect((await s.rest('GET', `/sms-webhooks/${w.id}`)).body.data.name).toBe(w.name);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id url events name enabled secret created_at updated_at sms_number { id telephone_number paused created_at }';

  it('creates, lists, reads, updates and deletes', async () => {
    const p = path();
    const made = await s.gql(
      `mutation($url: String!, $n: ID!) { create_sms_webhook(url: $url, name: "G", events: ["sms.delivered"], sms_number_id: $n) { ${FIELDS} } }`,
      { url: r.url(p), n: number.id },
    );
    expect(made.body.errors).toBeUndefined();
    const w = made.body.data.create_sms_webhook;
    expect(w).toMatchObject({ url: r.url(p), name: 'G', events: ['sms.delivered'], enabled: true, sms_number: number });
    expect(w.created_at).toMatch(ISO);
    expect(r.received(p)[0].verified).toBe(true);

    const list = await s.gql(`query($n: ID!) { sms_webhooks(sms_number_id: $n, limit: 100) { id } }`, { n: number.id });
    expect(list.body.data.sms_webhooks.map((x: any) => x.id)).toContain(w.id);

    const one = await s.gql(`query($id: ID!) { sms_webhook(sms_webhook_id: $id) { ${FIELDS} } }`, { id: w.id });
    expect(one.body.data.sms_webhook).toEqual(w);
    const rest = await s.rest('GET', `/sms-webhooks/${w.id}`);
    expect(rest.body.data).toEqual(w);

    const upd = await s.gql(`mutation($id: ID!) { update_sms_webhook(sms_webhook_id: $id, name: "G2", enabled: false) { name enabled } }`, { id: w.id });
    expect(upd.body.data.update_sms_webhook).toEqual({ name: 'G2', enabled: false });

    const del = await s.gql(`mutation($id: ID!) { delete_sms_webhook(sms_webhook_id: $id) }`, { id: w.id });
    expect(del.body.data.delete_sms_webhook).toBe(true);
    const gone = await s.gql(`query($id: ID!) { sms_webhook(sms_webhook_id: $id) { id } }`, { id: w.id });
    expect(gone.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a failing test request and bad fields are the same 422s', async () => {
    const p = path();
    r.respond(p, { status: 500 });
    const res = await s.gql(
      `mutation($url: String!, $n: ID!) { create_sms_webhook(url: $url, name: "G", events: ["sms.sent"], sms_number_id: $n) { id } }`,
      { url: r.url(p), n: number.id },
    );
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].extensions.errors).toEqual({ url: ['The url answered the test request with HTTP 500; a 2xx answer is required.'] });
    const bad = await s.gql(
      `mutation($n: ID!) { create_sms_webhook(url: "http://x.test/", name: "G", events: ["activity.sent"], sms_number_id: $n) { id } }`,
      { n: number.id },
    );
    expect(bad.body.errors[0].extensions.errors).toEqual({ 'events.0': ['The selected events.0 is invalid.'] });
    const taken = await created();
    const dup = await s.gql(
      `mutation($url: String!, $n: ID!) { create_sms_webhook(url: $url, name: "G", events: ["sms.sent"], sms_number_id: $n) { id } }`,
      { url: taken.url, n: number.id },
    );
    expect(dup.body.errors[0].extensions.errors).toEqual({ url: ['The url has already been taken.'] });
  });

  it('scope and account checks hold on GraphQL too', async () => {
    const w = await created();
    const scoped = await tokenWith(s, ['webhooks_full']);
    const denied = await s.gql(`query($id: ID!) { sms_webhook(sms_webhook_id: $id) { id } }`, { id: w.id }, scoped);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const reader = await tokenWith(s, ['sms_read']);
    const noWrite = await s.gql(`mutation($id: ID!) { delete_sms_webhook(sms_webhook_id: $id) }`, { id: w.id }, reader);
    expect(noWrite.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const other = await createAccount(s, 'GraphQL SMS neighbour');
    const hidden = await s.gql(`query($id: ID!) { sms_webhook(sms_webhook_id: $id) { id } }`, { id: w.id }, other.token);
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const list = await s.gql(`query($n: ID!) { sms_webhooks(sms_number_id: $n) { id } }`, { n: number.id }, other.token);
    expect(list.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE=false', () => {
  let strict: TestServer;
  let strictNumber: AssignedNumber;
  beforeAll(async () => {
    strict = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_TIMEOUT_MS: '1500' } });
    strictNumber = await assignNumber(strict, await accountIdOf(strict));
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('a private or loopback url is refused on create and update, and nothing reaches it', async () => {
    const before = r.requests.length;
    const post = await strict.rest('POST', '/sms-webhooks', {
      body: { url: r.url('/private'), name: 'SSRF', events: ['sms.sent'], sms_number_id: strictNumber.id },
    });
    expect(post.status).toBe(422);
    expect(post.body).toEqual(invalid({ url: ['The url could not be reached by the test request: address 127.0.0.1 is loopback.'] }));
    const meta = await strict.rest('POST', '/sms-webhooks', {
      body: { url: 'http://169.254.169.254/latest/', name: 'SSRF', events: ['sms.sent'], sms_number_id: strictNumber.id },
    });
    expect(meta.body).toEqual(invalid({ url: ['The url could not be reached by the test request: address 169.254.169.254 is link-local.'] }));
    expect(r.requests.length).toBe(before);

    // Seeded straight into the database: no public receiver exists for a create to succeed.
    const em = strict.app.services.orm.em.fork();
    const webhook = em.create(Webhook, {
      account: em.getReference(Account, await accountIdOf(strict)),
      kind: 'sms',
      domain: null,
      sms_number: em.getReference(SmsNumber, strictNumber.id),
      name: 'Seeded',
      url: 'https://hooks.example.com/sms',
      events: ['sms.sent'],
      secret_enc: encrypt(strict.app.services.config.APP_SECRET, 'seeded-secret'),
    } as never);
    await em.flush();
    const put = await strict.rest('PUT', `/sms-webhooks/${webhook.id}`, { body: { url: r.url('/private') } });
    expect(put.body).toEqual(invalid({ url: ['The url could not be reached by the test request: address 127.0.0.1 is loopback.'] }));
    expect(r.requests.length).toBe(before);
    const log = await em.fork().find(WebhookAttempt, { webhook_id: webhook.id });
    expect(log.map((a) => [a.type, a.success, a.status, a.error])).toEqual([['webhook.test', false, null, 'address 127.0.0.1 is loopback']]);
    expect((await strict.rest('GET', `/sms-webhooks/${webhook.id}`)).body.data.url).toBe('https://hooks.example.com/sms');
  });
});

import pg from 'pg';
import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';

const TEST_SECRET = 'crud-test-signing-secret-42';
let s: TestServer;
let r: Receiver;
let domain: { id: string; name: string };
let db: pg.Client;

beforeAll(async () => {
  s = await startTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TEST_SECRET: TEST_SECRET, WEBHOOK_TIMEOUT_MS: '2000' },
  });
  r = await startReceiver();
  r.secretFor('*', TEST_SECRET);
  domain = await seedDomain(s);
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await r?.close();
  await s?.close();
});

const KEYS = ['created_at', 'domain', 'editable', 'enabled', 'events', 'id', 'name', 'secret', 'updated_at', 'url'];
const NOT_FOUND = { message: 'Resource not found.' };
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
let seq = 0;
const path = () => `/hook-${++seq}`;

async function create(body: Record<string, unknown> = {}, token?: string) {
  return s.rest('POST', '/webhooks', {
    token,
    body: { url: r.url(path()), name: 'Hook', events: ['activity.sent'], domain_id: domain.id, ...body },
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

describe('POST /v1/webhooks', () => {
  it('sends the signed webhook.test request, then answers 201 with the record', async () => {
    const p = path();
    const res = await create({ url: r.url(p), name: 'Orders', events: ['activity.sent', 'activity.delivered'] });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toMatchObject({ url: r.url(p), name: 'Orders', events: ['activity.sent', 'activity.delivered'], enabled: true, editable: true });
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect(d.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(d.domain).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });

    const [req] = r.received(p);
    expect(r.received(p)).toHaveLength(1);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(Object.keys(req.json).sort()).toEqual(['created_at', 'message', 'type']);
    expect(req.json.type).toBe('webhook.test');
    expect(req.json.message).toEqual(expect.any(String));
    expect(req.json.created_at).toMatch(ISO);
    // Signed with the configured test secret (both signatures), not the webhook's own.
    expect(req).toMatchObject({ verified: true, signatureOk: true, standardOk: true, secret: TEST_SECRET });
    expect(req.headers.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(req.headers['webhook-id']).toMatch(/^msg_/);
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    const log = await attempts(d.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ delivery_id: null, type: 'webhook.test', success: true, status: 200 });
  });

  it('generates a different secret per webhook and does not store it in clear', async () => {
    const a = await created();
    const b = await created();
    expect(a.secret).not.toBe(b.secret);
    const { rows } = await db.query('select * from webhooks where id = $1', [a.id]);
    expect(JSON.stringify(rows[0])).not.toContain(a.secret);
  });

  it('enabled can be false at creation; the test request is still sent', async () => {
    const p = path();
    const d = await created({ url: r.url(p), enabled: false });
    expect(d.enabled).toBe(false);
    expect(r.received(p)).toHaveLength(1);
  });

  it.each([
    [{ status: 500 }, 'The url answered the test request with HTTP 500; a 2xx answer is required.'],
    [{ status: 404 }, 'The url answered the test request with HTTP 404; a 2xx answer is required.'],
    [{ status: 301, headers: { location: 'http://127.0.0.1:1/' } }, 'The url answered the test request with HTTP 301; a 2xx answer is required.'],
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
    const list = await s.rest('GET', `/webhooks?domain_id=${domain.id}&limit=100`);
    expect(list.body.data.map((w: any) => w.url)).not.toContain(r.url(p));
  });

  it('a URL nobody listens on: 422 naming the connection error', async () => {
    const gone = await startReceiver();
    const url = gone.url('/x');
    await gone.close();
    const res = await create({ url });
    expect(res.status).toBe(422);
    expect(res.body.errors.url[0]).toMatch(/^The url could not be reached by the test request: connection failed: ECONNREFUSED/);
  });

  it('the same URL twice on a domain is a 422 on url, without calling it again; another domain may use it', async () => {
    const p = path();
    await created({ url: r.url(p) });
    const again = await create({ url: r.url(p) });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(invalid({ url: ['The url has already been taken.'] }));
    expect(r.received(p)).toHaveLength(1);
    const other = await seedDomain(s);
    expect((await create({ url: r.url(p), domain_id: other.id })).status).toBe(201);
  });

  it.each([
    [{ events: ['activity.sent', 'activity.nope'] }, 'events.1', 'The selected events.1 is invalid.'],
    [{ events: ['webhook.test'] }, 'events.0', 'The selected events.0 is invalid.'],
    [{ events: ['sms.sent'] }, 'events.0', 'The selected events.0 is invalid.'],
    [{ events: [] }, 'events', 'The events field is required.'],
    [{ events: 'activity.sent' }, 'events', 'The events must be an array.'],
    [{ url: 'ftp://example.com/hook' }, 'url', 'The url format is invalid.'],
    [{ url: 'javascript:alert(1)' }, 'url', 'The url format is invalid.'],
    [{ url: 'not a url' }, 'url', 'The url format is invalid.'],
    [{ url: `http://example.com/${'a'.repeat(173)}` }, 'url', 'The url may not be greater than 191 characters.'],
    [{ url: undefined }, 'url', 'The url field is required.'],
    [{ name: 'n'.repeat(192) }, 'name', 'The name may not be greater than 191 characters.'],
    [{ name: '  ' }, 'name', 'The name field is required.'],
    [{ name: undefined }, 'name', 'The name field is required.'],
    [{ domain_id: undefined }, 'domain_id', 'The domain id field is required.'],
    [{ domain_id: 'nope' }, 'domain_id', 'The selected domain id is invalid.'],
    [{ enabled: 'yes' }, 'enabled', 'The enabled field must be true or false.'],
  ])('422 for %j', async (body, key, message) => {
    const before = r.requests.length;
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ [key]: [message] }));
    expect(r.requests.length).toBe(before);
  });

  it('accepts every SPEC.md email event kind', async () => {
    const all = [
      'activity.sent', 'activity.delivered', 'activity.soft_bounced', 'activity.hard_bounced', 'activity.deferred',
      'activity.opened', 'activity.opened_unique', 'activity.clicked', 'activity.clicked_unique', 'activity.unsubscribed',
      'activity.spam_complaint', 'activity.survey_opened', 'activity.survey_submitted', 'sender_identity.verified',
      'maintenance.start', 'maintenance.end', 'inbound_forward.failed', 'inbound_message.rejected',
      'email_single.verified', 'email_list.verified', 'bulk_email.completed', 'recipient.on_hold_added',
      'recipient.on_hold_removed',
    ];
    expect((await created({ events: all })).events).toEqual(all);
  });
});

describe('GET /v1/webhooks', () => {
  it('answers the full pager for one domain, newest first', async () => {
    const d = await seedDomain(s);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push((await created({ domain_id: d.id, name: `h${i}` })).id);
    const res = await s.rest('GET', `/webhooks?domain_id=${d.id}&limit=10&page=2`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(res.body.meta).sort()).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    expect(res.body.meta).toMatchObject({ current_page: 2, from: 11, to: 11, last_page: 2, per_page: 10, total: 11 });
    expect(Object.keys(res.body.links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(res.body.data.map((w: any) => w.id)).toEqual([ids[0]]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(KEYS);
    const first = await s.rest('GET', `/webhooks?domain_id=${d.id}`);
    expect(first.body.meta.per_page).toBe(25);
    expect(first.body.data.map((w: any) => w.id)).toEqual([...ids].reverse());
  });

  it('422 without domain_id or with a bad limit; 404 for an unknown domain', async () => {
    expect((await s.rest('GET', '/webhooks')).body).toEqual(invalid({ domain_id: ['The domain id field is required.'] }));
    const low = await s.rest('GET', `/webhooks?domain_id=${domain.id}&limit=5`);
    expect(low.body).toEqual(invalid({ limit: ['The limit must be at least 10.'] }));
    const unknown = await s.rest('GET', '/webhooks?domain_id=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/webhooks/{id}', () => {
  it('answers the record, and 404 for an unknown id', async () => {
    const w = await created({ name: 'One' });
    const res = await s.rest('GET', `/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(w);
    const missing = await s.rest('GET', '/webhooks/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe('PUT /v1/webhooks/{id}', () => {
  // SPEC.md: "On creating or updating a webhook the service sends a test request": every update,
  // a change of name or events too, not only a new url.
  it('name and events only: the url gets the signed test request again', async () => {
    const p = path();
    const w = await created({ url: r.url(p) });
    const res = await s.rest('PUT', `/webhooks/${w.id}`, { body: { name: 'Renamed', events: ['activity.opened'] } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(KEYS);
    expect(res.body.data).toMatchObject({ name: 'Renamed', events: ['activity.opened'], url: w.url, secret: w.secret });
    expect(r.received(p)).toHaveLength(2);
    expect(r.received(p)[1].verified).toBe(true);
    expect(r.received(p)[1].json).toMatchObject({ type: 'webhook.test' });
    expect(await attempts(w.id)).toHaveLength(2);
  });

  it('a rename whose test fails: 422, nothing changed; switching off is saved whatever the url answers', async () => {
    const p = path();
    const w = await created({ url: r.url(p), name: 'Keep' });
    r.respond(p, { status: 500 });
    const rename = await s.rest('PUT', `/webhooks/${w.id}`, { body: { name: 'Changed' } });
    expect(rename.status).toBe(422);
    expect(rename.body).toEqual(invalid({ url: ['The url answered the test request with HTTP 500; a 2xx answer is required.'] }));
    expect((await s.rest('GET', `/webhooks/${w.id}`)).body.data).toMatchObject({ name: 'Keep', enabled: true });
    const off = await s.rest('PUT', `/webhooks/${w.id}`, { body: { enabled: false, name: 'Off' } });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ name: 'Off', enabled: false });
    // Off, it calls nobody: a rename is saved too, and each test request is in the log.
    expect((await s.rest('PUT', `/webhooks/${w.id}`, { body: { name: 'Still off' } })).status).toBe(200);
    expect(r.received(p)).toHaveLength(4);
    expect((await attempts(w.id)).map((a) => a.success)).toEqual([true, false, false, false]);
  });

  it('a new url is tested first, and the attempt is logged', async () => {
    const w = await created();
    const p = path();
    const res = await s.rest('PUT', `/webhooks/${w.id}`, { body: { url: r.url(p) } });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe(r.url(p));
    expect(r.received(p)).toHaveLength(1);
    expect(r.received(p)[0].verified).toBe(true);
    expect(await attempts(w.id)).toHaveLength(2);
  });

  it('a new url that fails its test: 422, nothing changed, the failed attempt logged', async () => {
    const w = await created({ name: 'Keep' });
    const p = path();
    r.respond(p, { status: 503, body: 'down for maintenance' });
    const res = await s.rest('PUT', `/webhooks/${w.id}`, { body: { url: r.url(p), name: 'Changed' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ url: ['The url answered the test request with HTTP 503; a 2xx answer is required.'] }));
    const after = (await s.rest('GET', `/webhooks/${w.id}`)).body.data;
    expect(after).toMatchObject({ url: w.url, name: 'Keep' });
    const log = await attempts(w.id);
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({ delivery_id: null, type: 'webhook.test', success: false, status: 503, response_excerpt: 'down for maintenance' });
  });

  it('disabling and re-enabling each send the test request; re-enabling lifts an automatic pause', async () => {
    const p = path();
    const w = await created({ url: r.url(p) });
    const off = await s.rest('PUT', `/webhooks/${w.id}`, { body: { enabled: false } });
    expect(off.body.data.enabled).toBe(false);
    // Every update is tested (SPEC.md): 2 where disabling used to send nothing.
    expect(r.received(p)).toHaveLength(2);
    await db.query(`update webhooks set paused_reason = 'failures', paused_at = now(), notified_at = now() where id = $1`, [w.id]);
    const on = await s.rest('PUT', `/webhooks/${w.id}`, { body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.enabled).toBe(true);
    expect(r.received(p)).toHaveLength(3);
    const { rows } = await db.query('select paused_reason, paused_at, notified_at from webhooks where id = $1', [w.id]);
    expect(rows[0]).toEqual({ paused_reason: null, paused_at: null, notified_at: null });
  });

  it('a paused webhook whose url now fails stays paused', async () => {
    const p = path();
    const w = await created({ url: r.url(p) });
    await db.query(`update webhooks set paused_reason = 'gone', paused_at = now() where id = $1`, [w.id]);
    r.respond(p, { status: 410 });
    const res = await s.rest('PUT', `/webhooks/${w.id}`, { body: { enabled: true } });
    expect(res.status).toBe(422);
    const { rows } = await db.query('select paused_reason from webhooks where id = $1', [w.id]);
    expect(rows[0].paused_reason).toBe('gone');
  });

  it('422 rules: taken url, bad events, bad url, blank name; 404 for an unknown id', async () => {
    const a = await created();
    const b = await created();
    const put = (body: Record<string, unknown>, id = b.id) => s.rest('PUT', `/webhooks/${id}`, { body });
    expect((await put({ url: a.url })).body).toEqual(invalid({ url: ['The url has already been taken.'] }));
    expect((await put({ events: ['nope'] })).body).toEqual(invalid({ 'events.0': ['The selected events.0 is invalid.'] }));
    expect((await put({ events: [] })).body).toEqual(invalid({ events: ['The events field is required.'] }));
    expect((await put({ url: 'gopher://x' })).body).toEqual(invalid({ url: ['The url format is invalid.'] }));
    expect((await put({ name: '' })).body).toEqual(invalid({ name: ['The name field is required.'] }));
    expect((await put({ name: 'x'.repeat(192) })).body).toEqual(invalid({ name: ['The name may not be greater than 191 characters.'] }));
    // Its own url again is not "taken".
    expect((await put({ url: b.url })).status).toBe(200);
    const missing = await put({ name: 'x' }, 'nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('answers an empty 204, then 404', async () => {
    const w = await created();
    const res = await s.rest('DELETE', `/webhooks/${w.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/webhooks/${w.id}`)).status).toBe(404);
    const again = await s.rest('DELETE', `/webhooks/${w.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});

describe('access', () => {
  it('401 without a token, 403 without webhooks_full, on every route', async () => {
    const w = await created();
    const routes: Array<[string, string]> = [
      ['GET', `/webhooks?domain_id=${domain.id}`],
      ['GET', `/webhooks/${w.id}`],
      ['POST', '/webhooks'],
      ['PUT', `/webhooks/${w.id}`],
      ['DELETE', `/webhooks/${w.id}`],
    ];
    const body = { url: r.url(path()), name: 'x', events: ['activity.sent'], domain_id: domain.id };
    const scoped = await tokenWith(s, ['domains_full', 'email_full']);
    for (const [method, p] of routes) {
      const opts = { body: method === 'GET' || method === 'DELETE' ? undefined : body };
      const anon = await s.rest(method, p, { ...opts, token: null });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ message: 'Unauthenticated.' });
      const res = await s.rest(method, p, { ...opts, token: scoped });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
    expect((await s.rest('GET', `/webhooks/${w.id}`)).status).toBe(200);
  });

  it('a domain-limited token reaches only its domain (403 elsewhere)', async () => {
    const mine = await seedDomain(s);
    const token = await tokenWith(s, ['webhooks_full'], mine.id);
    const own = await created({ domain_id: mine.id }, token);
    const foreign = await created();
    expect((await s.rest('GET', `/webhooks?domain_id=${mine.id}`, { token })).body.data.map((w: any) => w.id)).toEqual([own.id]);
    expect((await s.rest('GET', `/webhooks?domain_id=${domain.id}`, { token })).status).toBe(403);
    expect((await s.rest('GET', `/webhooks/${foreign.id}`, { token })).status).toBe(403);
    expect((await s.rest('PUT', `/webhooks/${foreign.id}`, { token, body: { name: 'x' } })).status).toBe(403);
    expect((await s.rest('DELETE', `/webhooks/${foreign.id}`, { token })).status).toBe(403);
    expect((await create({ domain_id: domain.id }, token)).status).toBe(403);
    expect((await s.rest('GET', `/webhooks/${foreign.id}`)).status).toBe(200);
  });

  it('another account sees none of it: 404 on ids, its lists stay apart', async () => {
    const other = await createAccount(s, 'Webhook neighbour');
    const w = await created();
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await s.rest(method, `/webhooks/${w.id}`, { token: other.token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await s.rest('GET', `/webhooks?domain_id=${domain.id}`, { token: other.token })).status).toBe(404);
    const stolen = await create({ domain_id: domain.id }, other.token);
    expect(stolen.body).toEqual(invalid({ domain_id: ['The selected domain id is invalid.'] }));
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirs = await created({ domain_id: theirDomain.id, url: w.url }, other.token);
    const list = await s.rest('GET', `/webhooks?domain_id=${theirDomain.id}`, { token: other.token });
    expect(list.body.data.map((x: any) => x.id)).toEqual([theirs.id]);
    expect((await s.rest('GET', `/webhooks/${theirs.id}`)).status).toBe(404);
    expect((await s.rest('GET', `/webhooks/${w.id}`)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id url events name enabled editable secret created_at updated_at domain { id name created_at updated_at }';

  it('creates, lists, reads, updates and deletes', async () => {
    const p = path();
    const made = await s.gql(
      `mutation($url: String!, $domain: ID!) { create_webhook(url: $url, name: "G", events: ["activity.clicked"], domain_id: $domain) { ${FIELDS} } }`,
      { url: r.url(p), domain: domain.id },
    );
    expect(made.body.errors).toBeUndefined();
    const w = made.body.data.create_webhook;
    expect(w).toMatchObject({ url: r.url(p), name: 'G', events: ['activity.clicked'], enabled: true, editable: true });
    expect(w.created_at).toMatch(ISO);
    expect(r.received(p)[0].verified).toBe(true);

    const list = await s.gql(`query($d: ID!) { webhooks(domain_id: $d, limit: 100) { data { id } meta { total per_page } } }`, { d: domain.id });
    expect(list.body.data.webhooks.data.map((x: any) => x.id)).toContain(w.id);
    expect(list.body.data.webhooks.meta.per_page).toBe(100);

    const one = await s.gql(`query($id: ID!) { webhook(webhook_id: $id) { ${FIELDS} } }`, { id: w.id });
    expect(one.body.data.webhook).toEqual(w);

    const upd = await s.gql(`mutation($id: ID!) { update_webhook(webhook_id: $id, name: "G2", enabled: false) { name enabled } }`, { id: w.id });
    expect(upd.body.data.update_webhook).toEqual({ name: 'G2', enabled: false });

    const del = await s.gql(`mutation($id: ID!) { delete_webhook(webhook_id: $id) }`, { id: w.id });
    expect(del.body.data.delete_webhook).toBe(true);
    const gone = await s.gql(`query($id: ID!) { webhook(webhook_id: $id) { id } }`, { id: w.id });
    expect(gone.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a failing test request is the same 422 on url', async () => {
    const p = path();
    r.respond(p, { status: 500 });
    const res = await s.gql(
      `mutation($url: String!, $domain: ID!) { create_webhook(url: $url, name: "G", events: ["activity.sent"], domain_id: $domain) { id } }`,
      { url: r.url(p), domain: domain.id },
    );
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].extensions.errors).toEqual({
      url: ['The url answered the test request with HTTP 500; a 2xx answer is required.'],
    });
    const bad = await s.gql(
      `mutation($domain: ID!) { create_webhook(url: "http://x.test/", name: "G", events: ["nope"], domain_id: $domain) { id } }`,
      { domain: domain.id },
    );
    expect(bad.body.errors[0].extensions.errors).toEqual({ 'events.0': ['The selected events.0 is invalid.'] });
  });

  it('scope and account checks hold on GraphQL too', async () => {
    const w = await created();
    const scoped = await tokenWith(s, ['domains_full']);
    const denied = await s.gql(`query($id: ID!) { webhook(webhook_id: $id) { id } }`, { id: w.id }, scoped);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const other = await createAccount(s, 'GraphQL neighbour');
    const hidden = await s.gql(`query($id: ID!) { webhook(webhook_id: $id) { id } }`, { id: w.id }, other.token);
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

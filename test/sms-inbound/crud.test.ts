import { decrypt } from '../../src/lib/secrets.js';
import { accountIdOf } from '../support/factories.js';
import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { ROUTE_KEYS, NOT_FOUND, assignNumber, invalid, targetOf } from './support.js';

let s: TestServer;
let accountId: string;
let number: { id: string; telephone_number: string };

beforeAll(async () => {
  // Private forward targets stay refused here, to test the literal-address rule.
  s = await startTestServer();
  accountId = await accountIdOf(s);
  number = await assignNumber(s, accountId);
});
afterAll(async () => {
  await s?.close();
});

let seq = 0;
const url = (tag = 'in') => `https://hooks.example.com/${tag}/${++seq}`;

function body(extra: Record<string, unknown> = {}) {
  return { sms_number_id: number.id, name: 'Replies', forward_url: url(), ...extra };
}

async function created(extra: Record<string, unknown> = {}, token?: string) {
  const res = await s.rest('POST', '/sms-inbounds', { token, body: body(extra) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

describe('POST /v1/sms-inbounds', () => {
  it('creates a route and answers 201 with the record', async () => {
    const forward = url('create');
    const res = await s.rest('POST', '/sms-inbounds', {
      body: body({ name: 'Orders', forward_url: forward, filter: { comparer: 'starts-with', value: 'ORDER' }, enabled: false }),
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(d).sort()).toEqual(ROUTE_KEYS);
    expect(d).toEqual({
      id: expect.stringMatching(/^[0-9a-z]{16}$/),
      name: 'Orders',
      filter: { comparer: 'starts-with', value: 'ORDER' },
      forward_url: forward,
      enabled: false,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(ISO),
    });
  });

  it('defaults to enabled with no filter (null), and trims the name and URL', async () => {
    const forward = url('defaults');
    const d = await created({ name: '  Trimmed  ', forward_url: ` ${forward} ` });
    expect(d).toMatchObject({ name: 'Trimmed', forward_url: forward, enabled: true, filter: null });
  });

  it('owns a webhook row of kind sms_inbound carrying its URL, name, state and sealed secret', async () => {
    const d = await created({ name: 'Owned', enabled: false });
    const w = await targetOf(s, d.id);
    expect(w).toMatchObject({ kind: 'sms_inbound', account_id: accountId, sms_number_id: number.id, domain_id: null, name: 'Owned', url: d.forward_url, events: [], enabled: false });
    expect(decrypt(s.app.services.config.APP_SECRET, w.secret_enc)).toBe(d.secret);
    // Never shown as an email webhook.
    expect((await s.rest('GET', `/webhooks/${w.id}`)).status).toBe(404);
  });

  it('takes the limits exactly: name 191, forward_url 255, filter.value 255', async () => {
    const forward = `https://hooks.example.com/${'p'.repeat(255 - 'https://hooks.example.com/'.length)}`;
    expect(forward).toHaveLength(255);
    const d = await created({ name: 'n'.repeat(191), forward_url: forward, filter: { comparer: 'contains', value: 'v'.repeat(255) } });
    expect(d.name).toHaveLength(191);
    expect(d.forward_url).toBe(forward);
    expect(d.filter.value).toHaveLength(255);
  });

  it.each([
    ['sms_number_id missing', { sms_number_id: undefined }, { sms_number_id: ['The sms number id field is required.'] }],
    ['name missing', { name: undefined }, { name: ['The name field is required.'] }],
    ['name blank', { name: '   ' }, { name: ['The name field is required.'] }],
    ['name too long', { name: 'n'.repeat(192) }, { name: ['The name may not be greater than 191 characters.'] }],
    ['name not a string', { name: 5 }, { name: ['The name must be a string.'] }],
    ['forward_url missing', { forward_url: undefined }, { forward_url: ['The forward url field is required.'] }],
    ['forward_url too long', { forward_url: `https://hooks.example.com/${'p'.repeat(230)}` }, { forward_url: ['The forward url may not be greater than 255 characters.'] }],
    ['forward_url not a URL', { forward_url: 'not a url' }, { forward_url: ['The forward url format is invalid.'] }],
    ['forward_url not http(s)', { forward_url: 'ftp://hooks.example.com/x' }, { forward_url: ['The forward url format is invalid.'] }],
    ['forward_url loopback', { forward_url: 'http://127.0.0.1:8080/in' }, { forward_url: ['The forward url must point to a public address.'] }],
    ['forward_url private', { forward_url: 'http://10.1.2.3/in' }, { forward_url: ['The forward url must point to a public address.'] }],
    ['forward_url IPv6 loopback', { forward_url: 'http://[::1]/in' }, { forward_url: ['The forward url must point to a public address.'] }],
    ['forward_url metadata endpoint', { forward_url: 'http://169.254.169.254/latest' }, { forward_url: ['The forward url must point to a public address.'] }],
    ['filter not an object', { filter: 'contains' }, { filter: ['The filter must be an object.'] }],
    ['filter.comparer missing', { filter: { value: 'x' } }, { 'filter.comparer': ['The filter.comparer field is required.'] }],
    ['filter.comparer unknown', { filter: { comparer: 'like', value: 'x' } }, { 'filter.comparer': ['The selected filter.comparer is invalid.'] }],
    ['filter.value missing', { filter: { comparer: 'equal' } }, { 'filter.value': ['The filter.value field is required.'] }],
    ['filter.value blank', { filter: { comparer: 'equal', value: ' ' } }, { 'filter.value': ['The filter.value field is required.'] }],
    ['filter.value too long', { filter: { comparer: 'equal', value: 'v'.repeat(256) } }, { 'filter.value': ['The filter.value may not be greater than 255 characters.'] }],
    ['enabled not a boolean', { enabled: 'yes' }, { enabled: ['The enabled field must be true or false.'] }],
    ['sms_number_id unknown', { sms_number_id: 'zzzzzzzzzzzzzzzz' }, { sms_number_id: ['The selected sms number id is invalid.'] }],
  ])('answers 422 when %s', async (_label, extra, errors) => {
    const res = await s.rest('POST', '/sms-inbounds', { body: body(extra) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(errors as Record<string, string[]>));
  });

  it('names every problem of a request in one 422', async () => {
    const res = await s.rest('POST', '/sms-inbounds', {
      body: body({ name: 'n'.repeat(192), forward_url: 'nope', filter: { comparer: 'like', value: 'v'.repeat(256) }, sms_number_id: 'zzzzzzzzzzzzzzzz' }),
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['filter.comparer', 'filter.value', 'forward_url', 'name', 'sms_number_id']);
  });

  it('refuses another account\'s number as sms_number_id', async () => {
    const other = await createAccount(s, 'Number owner');
    const theirs = await assignNumber(s, other.id);
    const res = await s.rest('POST', '/sms-inbounds', { body: body({ sms_number_id: theirs.id }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ sms_number_id: ['The selected sms number id is invalid.'] }));
  });

  it('refuses a forward_url another route of the same number has; another number may use it', async () => {
    const first = await created();
    const again = await s.rest('POST', '/sms-inbounds', { body: body({ forward_url: first.forward_url }) });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(invalid({ forward_url: ['The forward url has already been taken.'] }));
    const second = await assignNumber(s, accountId);
    expect((await s.rest('POST', '/sms-inbounds', { body: body({ sms_number_id: second.id, forward_url: first.forward_url }) })).status).toBe(201);
  });

  it('gives each route its own secret', async () => {
    const a = await created();
    const b = await created();
    expect(a.secret).not.toBe(b.secret);
  });
});

describe('GET /v1/sms-inbounds', () => {
  let own: { id: string; telephone_number: string };
  let on: any;
  let off: any;
  beforeAll(async () => {
    own = await assignNumber(s, accountId);
    on = await created({ sms_number_id: own.id, name: 'On' });
    off = await created({ sms_number_id: own.id, name: 'Off', enabled: false, filter: { comparer: 'equal', value: 'HELP' } });
  });

  it('lists routes newest first, in the list shape (no sms_number)', async () => {
    const res = await s.rest('GET', `/sms-inbounds?sms_number_id=${own.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual([off, on]);
    for (const r of res.body.data) expect(Object.keys(r).sort()).toEqual(ROUTE_KEYS);
  });

  it('filters by enabled', async () => {
    const yes = await s.rest('GET', `/sms-inbounds?sms_number_id=${own.id}&enabled=true`);
    expect(yes.body.data.map((r: any) => r.id)).toEqual([on.id]);
    const no = await s.rest('GET', `/sms-inbounds?sms_number_id=${own.id}&enabled=false`);
    expect(no.body.data.map((r: any) => r.id)).toEqual([off.id]);
  });

  it('lists every number\'s routes without sms_number_id', async () => {
    const res = await s.rest('GET', '/sms-inbounds?limit=100');
    const ids = res.body.data.map((r: any) => r.id);
    expect(ids).toEqual(expect.arrayContaining([on.id, off.id]));
  });

  it('pages with page and limit', async () => {
    const n = await assignNumber(s, accountId);
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await created({ sms_number_id: n.id, name: `p${i}` }));
    const first = await s.rest('GET', `/sms-inbounds?sms_number_id=${n.id}&limit=10&page=1`);
    const second = await s.rest('GET', `/sms-inbounds?sms_number_id=${n.id}&limit=10&page=2`);
    expect(first.body.data.map((r: any) => r.name)).toEqual(made.slice(1).reverse().map((r) => r.name));
    expect(second.body.data.map((r: any) => r.name)).toEqual(['p0']);
  });

  it.each([
    ['limit=9', { limit: ['The limit must be at least 10.'] }],
    ['limit=101', { limit: ['The limit may not be greater than 100.'] }],
    ['page=0', { page: ['The page must be at least 1.'] }],
    ['limit=ten', { limit: ['The limit must be an integer.'] }],
    ['enabled=maybe', { enabled: ['The enabled field must be true or false.'] }],
  ])('answers 422 for %s', async (query, errors) => {
    const res = await s.rest('GET', `/sms-inbounds?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(errors));
  });

  it('answers 404 for an unknown or another account\'s sms_number_id', async () => {
    const other = await createAccount(s, 'List other');
    const theirs = await assignNumber(s, other.id);
    for (const id of ['zzzzzzzzzzzzzzzz', theirs.id]) {
      const res = await s.rest('GET', `/sms-inbounds?sms_number_id=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('GET /v1/sms-inbounds/{id}', () => {
  it('answers the route with its sms_number', async () => {
    const d = await created({ filter: { comparer: 'not-contains', value: 'spam' } });
    const res = await s.rest('GET', `/sms-inbounds/${d.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([...ROUTE_KEYS, 'sms_number'].sort());
    expect(res.body.data).toEqual({
      ...d,
      sms_number: { id: number.id, telephone_number: number.telephone_number, paused: false, created_at: expect.stringMatching(ISO) },
    });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await s.rest('GET', '/sms-inbounds/zzzzzzzzzzzzzzzz');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('PUT /v1/sms-inbounds/{id}', () => {
  it('changes only the fields sent, on the route and its webhook row; the secret stays', async () => {
    const d = await created({ name: 'Before', filter: { comparer: 'equal', value: 'a' } });
    const forward = url('moved');
    const res = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { name: 'After', forward_url: forward } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(ROUTE_KEYS);
    expect(res.body.data).toEqual({ ...d, name: 'After', forward_url: forward });
    expect(await targetOf(s, d.id)).toMatchObject({ name: 'After', url: forward, enabled: true });
  });

  it('replaces the filter, and removes it with filter: null', async () => {
    const d = await created({ filter: { comparer: 'equal', value: 'a' } });
    const changed = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { filter: { comparer: 'ends-with', value: '!' } } });
    expect(changed.body.data.filter).toEqual({ comparer: 'ends-with', value: '!' });
    const kept = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { name: 'Same filter' } });
    expect(kept.body.data.filter).toEqual({ comparer: 'ends-with', value: '!' });
    const removed = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { filter: null } });
    expect(removed.body.data.filter).toBeNull();
  });

  it('turns the route off and on, with its webhook row', async () => {
    const d = await created();
    const off = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { enabled: false } });
    expect(off.body.data.enabled).toBe(false);
    expect((await targetOf(s, d.id)).enabled).toBe(false);
    const on = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { enabled: true } });
    expect(on.body.data.enabled).toBe(true);
    expect((await targetOf(s, d.id)).enabled).toBe(true);
  });

  it('moves the route to another number of the account', async () => {
    const d = await created();
    const n = await assignNumber(s, accountId);
    const res = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { sms_number_id: n.id } });
    expect(res.status).toBe(200);
    expect((await s.rest('GET', `/sms-inbounds/${d.id}`)).body.data.sms_number.id).toBe(n.id);
    expect((await targetOf(s, d.id)).sms_number_id).toBe(n.id);
  });

  it.each([
    ['name blank', { name: '' }, { name: ['The name field is required.'] }],
    ['name too long', { name: 'n'.repeat(192) }, { name: ['The name may not be greater than 191 characters.'] }],
    ['forward_url blank', { forward_url: ' ' }, { forward_url: ['The forward url field is required.'] }],
    ['forward_url too long', { forward_url: `https://hooks.example.com/${'p'.repeat(230)}` }, { forward_url: ['The forward url may not be greater than 255 characters.'] }],
    ['forward_url invalid', { forward_url: 'mailto:a@example.com' }, { forward_url: ['The forward url format is invalid.'] }],
    ['forward_url private', { forward_url: 'http://192.168.1.1/' }, { forward_url: ['The forward url must point to a public address.'] }],
    ['filter.comparer unknown', { filter: { comparer: 'regex', value: 'x' } }, { 'filter.comparer': ['The selected filter.comparer is invalid.'] }],
    ['filter.comparer missing', { filter: { value: 'x' } }, { 'filter.comparer': ['The filter.comparer field is required.'] }],
    ['filter.value missing', { filter: { comparer: 'equal' } }, { 'filter.value': ['The filter.value field is required.'] }],
    ['filter.value too long', { filter: { comparer: 'equal', value: 'v'.repeat(256) } }, { 'filter.value': ['The filter.value may not be greater than 255 characters.'] }],
    ['enabled not a boolean', { enabled: 1 }, { enabled: ['The enabled field must be true or false.'] }],
    ['sms_number_id unknown', { sms_number_id: 'zzzzzzzzzzzzzzzz' }, { sms_number_id: ['The selected sms number id is invalid.'] }],
  ])('answers 422 when %s, and changes nothing', async (_label, change, errors) => {
    const d = await created();
    const res = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: change });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(errors as Record<string, string[]>));
    expect((await s.rest('GET', `/sms-inbounds/${d.id}`)).body.data).toMatchObject(d);
  });

  it('refuses a forward_url another route of the number has', async () => {
    const a = await created();
    const b = await created();
    const res = await s.rest('PUT', `/sms-inbounds/${b.id}`, { body: { forward_url: a.forward_url } });
    expect(res.body).toEqual(invalid({ forward_url: ['The forward url has already been taken.'] }));
    // Sending its own URL again is no conflict.
    expect((await s.rest('PUT', `/sms-inbounds/${b.id}`, { body: { forward_url: b.forward_url } })).status).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await s.rest('PUT', '/sms-inbounds/zzzzzzzzzzzzzzzz', { body: { name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('a route whose target the engine paused', () => {
  it('shows enabled false, lists under enabled=false, and resumes with enabled: true', async () => {
    const d = await created();
    const w = await targetOf(s, d.id);
    await s.app.services.orm.em.fork().execute(
      `update webhooks set enabled = false, paused_reason = 'failures', paused_at = now(), notified_at = now() where id = ?`,
      [w.id],
    );
    expect((await s.rest('GET', `/sms-inbounds/${d.id}`)).body.data.enabled).toBe(false);
    const off = await s.rest('GET', `/sms-inbounds?sms_number_id=${number.id}&enabled=false&limit=100`);
    expect(off.body.data.map((r: any) => r.id)).toContain(d.id);

    const res = await s.rest('PUT', `/sms-inbounds/${d.id}`, { body: { enabled: true } });
    expect(res.body.data.enabled).toBe(true);
    expect(await targetOf(s, d.id)).toMatchObject({ enabled: true, paused_reason: null, paused_at: null, notified_at: null });
  });
});

describe('DELETE /v1/sms-inbounds/{id}', () => {
  it('answers an empty 204 and removes the route and its webhook row', async () => {
    const d = await created();
    const w = await targetOf(s, d.id);
    const res = await s.rest('DELETE', `/sms-inbounds/${d.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const [row] = await s.app.services.orm.em.fork().execute('select count(*)::int as n from webhooks where id = ?', [w.id]);
    expect(row.n).toBe(0);
    expect((await s.rest('GET', `/sms-inbounds/${d.id}`)).status).toBe(404);
    const again = await s.rest('DELETE', `/sms-inbounds/${d.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});

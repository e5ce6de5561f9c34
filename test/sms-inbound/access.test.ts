import { accountIdOf } from '../support/factories.js';
import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { NOT_FOUND, ROUTE_KEYS, assignNumber } from './support.js';

let s: TestServer;
let number: { id: string; telephone_number: string };
let other: { id: string; token: string };
let theirNumber: { id: string; telephone_number: string };

beforeAll(async () => {
  s = await startTestServer();
  number = await assignNumber(s, await accountIdOf(s));
  other = await createAccount(s, 'SMS other');
  theirNumber = await assignNumber(s, other.id);
});
afterAll(async () => {
  await s?.close();
});

let seq = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  sms_number_id: number.id,
  name: 'Access',
  forward_url: `https://hooks.example.com/access/${++seq}`,
  ...extra,
});

async function created(token?: string, extra: Record<string, unknown> = {}) {
  const res = await s.rest('POST', '/sms-inbounds', { token, body: body(extra) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

describe('authentication and scopes', () => {
  it('answers 401 without a valid token', async () => {
    for (const [method, path] of [['GET', '/sms-inbounds'], ['POST', '/sms-inbounds'], ['GET', '/sms-inbounds/x'], ['PUT', '/sms-inbounds/x'], ['DELETE', '/sms-inbounds/x']]) {
      const res = await s.rest(method, path, { token: null, body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
    expect((await s.rest('GET', '/sms-inbounds', { token: 'mlsn.nope' })).status).toBe(401);
  });

  it('answers 403 without an sms scope', async () => {
    const token = await tokenWith(s, ['domains_full', 'webhooks_full', 'inbounds_full']);
    const d = await created();
    for (const [method, path] of [['GET', '/sms-inbounds'], ['POST', '/sms-inbounds'], ['GET', `/sms-inbounds/${d.id}`], ['PUT', `/sms-inbounds/${d.id}`], ['DELETE', `/sms-inbounds/${d.id}`]]) {
      const res = await s.rest(method, path, { token, body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
  });

  it('lets sms_read read but not write; sms_full does both', async () => {
    const read = await tokenWith(s, ['sms_read']);
    const full = await tokenWith(s, ['sms_full']);
    const d = await created(full);
    expect((await s.rest('GET', '/sms-inbounds', { token: read })).status).toBe(200);
    expect((await s.rest('GET', `/sms-inbounds/${d.id}`, { token: read })).status).toBe(200);
    expect((await s.rest('POST', '/sms-inbounds', { token: read, body: body() })).status).toBe(403);
    expect((await s.rest('PUT', `/sms-inbounds/${d.id}`, { token: read, body: { name: 'x' } })).status).toBe(403);
    expect((await s.rest('DELETE', `/sms-inbounds/${d.id}`, { token: read })).status).toBe(403);
    expect((await s.rest('PUT', `/sms-inbounds/${d.id}`, { token: full, body: { name: 'x' } })).status).toBe(200);
    expect((await s.rest('DELETE', `/sms-inbounds/${d.id}`, { token: full })).status).toBe(204);
  });
});

describe('cross-account isolation', () => {
  it('keeps each account to its own routes: 404 for the other\'s, and lists apart', async () => {
    const ours = await created();
    const theirs = await created(other.token, { sms_number_id: theirNumber.id });
    for (const [method, path] of [['GET', `/sms-inbounds/${ours.id}`], ['PUT', `/sms-inbounds/${ours.id}`], ['DELETE', `/sms-inbounds/${ours.id}`]]) {
      const res = await s.rest(method, path, { token: other.token, body: method === 'PUT' ? { name: 'taken over' } : undefined });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const theirList = await s.rest('GET', '/sms-inbounds?limit=100', { token: other.token });
    expect(theirList.body.data.map((r: any) => r.id)).toEqual([theirs.id]);
    const ourList = await s.rest('GET', '/sms-inbounds?limit=100');
    expect(ourList.body.data.map((r: any) => r.id)).not.toContain(theirs.id);
    // Untouched by the other account's attempts.
    expect((await s.rest('GET', `/sms-inbounds/${ours.id}`)).body.data.name).toBe('Access');
  });

  it('does not let a route move to another account\'s number', async () => {
    const ours = await created();
    const res = await s.rest('PUT', `/sms-inbounds/${ours.id}`, { body: { sms_number_id: theirNumber.id } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ sms_number_id: ['The selected sms number id is invalid.'] });
  });
});

const FIELDS = 'id name filter { comparer value } forward_url enabled secret created_at';

describe('GraphQL', () => {
  it('creates, reads, lists, updates and deletes like /v1', async () => {
    const c = await s.gql(
      `mutation($n: ID!, $u: String!) { create_sms_inbound(sms_number_id: $n, name: "GQL", forward_url: $u,
        filter: { comparer: "contains", value: "help" }) { ${FIELDS} } }`,
      { n: number.id, u: 'https://gql.example.com/sms' },
    );
    expect(c.body.errors).toBeUndefined();
    const r = c.body.data.create_sms_inbound;
    expect(r).toEqual({
      id: expect.any(String),
      name: 'GQL',
      filter: { comparer: 'contains', value: 'help' },
      forward_url: 'https://gql.example.com/sms',
      enabled: true,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(ISO),
    });
    const rest = await s.rest('GET', `/sms-inbounds/${r.id}`);
    expect(Object.keys(rest.body.data).sort()).toEqual([...ROUTE_KEYS, 'sms_number'].sort());

    const one = await s.gql(`query($id: ID!) { sms_inbound(sms_inbound_id: $id) { ${FIELDS} sms_number { id telephone_number paused created_at } } }`, { id: r.id });
    expect(one.body.data.sms_inbound).toEqual({ ...r, sms_number: rest.body.data.sms_number });

    const list = await s.gql(`query($n: ID) { sms_inbounds(sms_number_id: $n, enabled: true, limit: 100) { id sms_number { id } } }`, { n: number.id });
    expect(list.body.data.sms_inbounds).toContainEqual({ id: r.id, sms_number: null });

    const u = await s.gql(`mutation($id: ID!) { update_sms_inbound(sms_inbound_id: $id, name: "GQL2", filter: null, enabled: false) { ${FIELDS} } }`, { id: r.id });
    expect(u.body.data.update_sms_inbound).toEqual({ ...r, name: 'GQL2', filter: null, enabled: false });

    const del = await s.gql(`mutation($id: ID!) { delete_sms_inbound(sms_inbound_id: $id) }`, { id: r.id });
    expect(del.body.data.delete_sms_inbound).toBe(true);
    const gone = await s.gql(`query($id: ID!) { sms_inbound(sms_inbound_id: $id) { id } }`, { id: r.id });
    expect(gone.body.errors[0]).toMatchObject({ message: 'Resource not found.', extensions: { code: 'NOT_FOUND' } });
  });

  it('answers validation, scope and account errors', async () => {
    const bad = await s.gql(
      `mutation($n: ID!) { create_sms_inbound(sms_number_id: $n, name: "x", forward_url: "http://10.0.0.1/", filter: { comparer: "like", value: "a" }) { id } }`,
      { n: number.id },
    );
    expect(bad.body.errors[0]).toMatchObject({
      message: 'The given data was invalid.',
      extensions: {
        code: 'VALIDATION_FAILED',
        errors: {
          forward_url: ['The forward url must point to a public address.'],
          'filter.comparer': ['The selected filter.comparer is invalid.'],
        },
      },
    });
    const long = await s.gql(
      `mutation($n: ID!, $name: String!) { create_sms_inbound(sms_number_id: $n, name: $name, forward_url: "https://a.example.com/") { id } }`,
      { n: number.id, name: 'n'.repeat(192) },
    );
    expect(long.body.errors[0].extensions.errors).toEqual({ name: ['The name may not be greater than 191 characters.'] });

    const token = await tokenWith(s, ['sms_read']);
    const denied = await s.gql(`mutation($n: ID!) { create_sms_inbound(sms_number_id: $n, name: "x", forward_url: "https://a.example.com/") { id } }`, { n: number.id }, token);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anon = await s.gql('query { sms_inbounds { id } }', {}, null);
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const ours = await created();
    const cross = await s.gql(`query($id: ID!) { sms_inbound(sms_inbound_id: $id) { id } }`, { id: ours.id }, other.token);
    expect(cross.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const crossList = await s.gql(`query($n: ID) { sms_inbounds(sms_number_id: $n) { id } }`, { n: number.id }, other.token);
    expect(crossList.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

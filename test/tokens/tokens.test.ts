import pg from 'pg';
import { CreateTokenDocument, TokenByIdDocument, WhoamiDocument } from '../generated/graphql.js';
import { seedDomain } from '../support/factories.js';
import { subscribe } from '../support/sse.js';
import { ADMIN_TOKEN, createAccount, ISO, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const TOKEN_KEYS = ['created_at', 'id', 'name', 'scopes', 'status'];
const CREATED_KEYS = ['accessToken', 'created_at', 'domain', 'has_full', 'id', 'name', 'scopes'];

async function create(body: Record<string, unknown>, token?: string) {
  return s.rest('POST', '/token', { body, token });
}

describe('POST /v1/token', () => {
  it('answers 200 with the secret once, in the creation shape', async () => {
    const res = await create({ name: 'Sending', scopes: ['email_full', 'domains_read'] });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(CREATED_KEYS);
    expect(d.accessToken).toMatch(/^mlsn\.[0-9a-f]{64}$/);
    expect(d.created_at).toMatch(PLAIN);
    expect(d).toMatchObject({ name: 'Sending', scopes: ['email_full', 'domains_read'], has_full: false, domain: null });

    // The secret authenticates, and is never readable again.
    const me = await s.rest('GET', `/token/${d.id}`, { token: ADMIN_TOKEN });
    expect(me.body.data).not.toHaveProperty('accessToken');
    const own = await s.rest('GET', '/domains', { token: d.accessToken });
    expect(own.status).not.toBe(401);
  });

  it('stores only a hash of the secret', async () => {
    const res = await create({ name: 'Hashed', scopes: ['email_full'] });
    const secret: string = res.body.data.accessToken;
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    const { rows } = await db.query('select * from api_tokens where id = $1', [res.body.data.id]);
    await db.end();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    expect(JSON.stringify(rows[0])).not.toContain(secret.slice(5));
  });

  it('has_full is true for a token with every scope', async () => {
    const all = (await s.rest('GET', '/token')).body.data.find((t: any) => t.name === 'Admin token').scopes;
    const res = await create({ name: 'Full', scopes: all });
    expect(res.body.data.has_full).toBe(true);
  });

  it.each([
    [{ scopes: ['email_full'] }, 'name', 'The name field is required.'],
    [{ name: '', scopes: ['email_full'] }, 'name', 'The name field is required.'],
    [{ name: 'x'.repeat(51), scopes: ['email_full'] }, 'name', 'The name may not be greater than 50 characters.'],
    [{ name: 'n' }, 'scopes', 'The scopes field is required.'],
    [{ name: 'n', scopes: [] }, 'scopes', 'The scopes field is required.'],
    [{ name: 'n', scopes: 'email_full' }, 'scopes', 'The scopes must be an array.'],
    [{ name: 'n', scopes: ['email_full', 'root'] }, 'scopes.1', 'The selected scopes.1 is invalid.'],
    [{ name: 42, scopes: ['email_full'] }, 'name', 'The name must be a string.'],
    [{ name: 'n', scopes: ['email_full'], domain_id: 'nope' }, 'domain_id', 'The selected domain id is invalid.'],
  ])('422 for %j', async (body, key, message) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
  });

  it('400 with {message} for a body that is not JSON', async () => {
    const res = await s.rest('POST', '/token', { rawBody: '{"name":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('takes an empty body sent as application/json as no body (clients do this on DELETE)', async () => {
    const made = await create({ name: 'empty-body', scopes: ['email_full'] });
    const res = await s.rest('DELETE', `/token/${made.body.data.id}`, { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(204);
  });
});

describe('GET /v1/token', () => {
  it('lists tokens with exact keys and ISO timestamps', async () => {
    const res = await s.rest('GET', '/token');
    expect(res.status).toBe(200);
    // COMPAT.md Pagers: a list SPEC.md leaves open answers the full pager when it pages.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    for (const t of res.body.data) {
      expect(Object.keys(t).sort()).toEqual(TOKEN_KEYS);
      expect(t.created_at).toMatch(ISO);
      expect(t.status).toBe('unpause');
    }
  });

  it('pages with page and limit', async () => {
    for (let i = 0; i < 12; i++) await create({ name: `page-${i}`, scopes: ['email_full'] });
    const first = await s.rest('GET', '/token?limit=10&page=1');
    const second = await s.rest('GET', '/token?limit=10&page=2');
    expect(first.body.data).toHaveLength(10);
    expect(second.body.data.length).toBeGreaterThan(0);
    const ids = new Set(first.body.data.map((t: any) => t.id));
    for (const t of second.body.data) expect(ids.has(t.id)).toBe(false);
  });

  it.each([
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['limit=abc', 'limit', 'The limit must be an integer.'],
    ['limit=1.5', 'limit', 'The limit must be an integer.'],
    ['page=0', 'page', 'The page must be at least 1.'],
    ['page=x', 'page', 'The page must be an integer.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/token?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [key]: [message] });
  });
});

describe('GET /v1/token/{id}', () => {
  it('answers the token, and 404 for an unknown id', async () => {
    const { body } = await create({ name: 'One', scopes: ['email_full'] });
    const res = await s.rest('GET', `/token/${body.data.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(TOKEN_KEYS);
    expect(res.body.data.created_at).toMatch(ISO);
    const missing = await s.rest('GET', '/token/doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('PUT /v1/token/{id}', () => {
  it('renames, pauses (401 while paused) and unpauses', async () => {
    const { body } = await create({ name: 'Toggle', scopes: ['tokens_full'] });
    const { id, accessToken } = body.data;

    const renamed = await s.rest('PUT', `/token/${id}`, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id, name: 'Renamed', status: 'unpause' });

    const paused = await s.rest('PUT', `/token/${id}`, { body: { status: 'pause' } });
    expect(paused.body.data.status).toBe('pause');
    const denied = await s.rest('GET', '/token', { token: accessToken });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ message: 'Unauthenticated.' });

    const unpaused = await s.rest('PUT', `/token/${id}/settings`, { body: { status: 'unpause' } });
    expect(unpaused.status).toBe(200);
    expect(unpaused.body.data.status).toBe('unpause');
    expect((await s.rest('GET', '/token', { token: accessToken })).status).toBe(200);
  });

  it.each([
    [{}, 'name', 'The name field is required when status is not present.'],
    [{ status: 'stop' }, 'status', 'The selected status is invalid.'],
    [{ name: 'y'.repeat(51) }, 'name', 'The name may not be greater than 50 characters.'],
  ])('422 for %j', async (payload, key, message) => {
    const { body } = await create({ name: 'Bad update', scopes: ['email_full'] });
    const res = await s.rest('PUT', `/token/${body.data.id}`, { body: payload });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [key]: [message] });
  });

  it('422 when /settings has no status, 404 for an unknown id', async () => {
    const { body } = await create({ name: 'Settings', scopes: ['email_full'] });
    const res = await s.rest('PUT', `/token/${body.data.id}/settings`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ status: ['The status field is required.'] });
    expect((await s.rest('PUT', '/token/nope', { body: { name: 'x' } })).status).toBe(404);
  });
});

describe('DELETE /v1/token/{id}', () => {
  it('answers an empty 204, and the token stops working', async () => {
    const { body } = await create({ name: 'Doomed', scopes: ['tokens_full'] });
    const res = await s.rest('DELETE', `/token/${body.data.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/token/${body.data.id}`)).status).toBe(404);
    expect((await s.rest('GET', '/token', { token: body.data.accessToken })).status).toBe(401);
    expect((await s.rest('DELETE', `/token/${body.data.id}`)).status).toBe(404);
  });
});

describe('auth', () => {
  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'mlsn.unknown']) {
      const res = await s.rest('GET', '/token', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('403 on every token route without tokens_full', async () => {
    const weak = await tokenWith(s, ['email_full']);
    const { body } = await create({ name: 'Target', scopes: ['email_full'] });
    const id = body.data.id;
    const calls: [string, string, unknown?][] = [
      ['GET', '/token'],
      ['GET', `/token/${id}`],
      ['POST', '/token', { name: 'x', scopes: ['email_full'] }],
      ['PUT', `/token/${id}`, { name: 'x' }],
      ['PUT', `/token/${id}/settings`, { status: 'pause' }],
      ['DELETE', `/token/${id}`],
    ];
    for (const [method, path, payload] of calls) {
      const res = await s.rest(method, path, { token: weak, body: payload });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('another account cannot see or touch these tokens (404)', async () => {
    const other = await createAccount(s);
    const { body } = await create({ name: 'Mine', scopes: ['email_full'] });
    const id = body.data.id;
    expect((await s.rest('GET', `/token/${id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('PUT', `/token/${id}`, { token: other.token, body: { name: 'x' } })).status).toBe(404);
    expect((await s.rest('DELETE', `/token/${id}`, { token: other.token })).status).toBe(404);
    const list = await s.rest('GET', '/token', { token: other.token });
    expect(list.body.data.map((t: any) => t.id)).not.toContain(id);
    expect((await s.rest('GET', `/token/${id}`)).status).toBe(200);
  });
});

describe('GraphQL surface', () => {
  it('creates and reads tokens with the same shapes', async () => {
    const res = await s.gql(CreateTokenDocument, { name: 'gql', scopes: ['email_full'] });
    expect(res.status).toBe(200);
    const created = res.body.data!.create_token;
    expect(created.created_at).toMatch(PLAIN);
    expect(created).toMatchObject({ has_full: false, domain: null });
    const one = await s.gql(TokenByIdDocument, { token_id: created.id });
    expect(one.body.data!.token).toMatchObject({ id: created.id, name: 'gql', status: 'unpause', scopes: ['email_full'] });
    expect(one.body.data!.token.created_at).toMatch(ISO);
    const me = await s.gql(WhoamiDocument, {}, created.accessToken);
    expect(me.body.data!.whoami).toMatchObject({ token_id: created.id, scopes: ['email_full'], domain_id: null });
  });

  it('answers the same statuses as /v1: 422, 404, 403, 401', async () => {
    const invalid = await s.gql(`mutation { create_token(name: "n", scopes: ["nope"]) { id } }`);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].message).toBe('The given data was invalid.');
    expect(invalid.body.errors[0].extensions.errors).toEqual({ 'scopes.0': ['The selected scopes.0 is invalid.'] });

    const missing = await s.gql(`query { token(token_id: "nope") { id } }`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].message).toBe('Resource not found.');

    const weak = await tokenWith(s, ['domains_read']);
    const forbidden = await s.gql(`query { tokens { id } }`, {}, weak);
    expect(forbidden.status).toBe(403);

    const anon = await s.gql(`query { tokens { id } }`, {}, 'mlsn.bogus');
    expect(anon.status).toBe(401);
    const none = await s.gql(`query { tokens { id } }`, {}, null);
    expect(none.status).toBe(401);
  });

  it('streams token_events live over SSE at /graphql/stream', async () => {
    const stream = await subscribe(s, 'subscription { token_events { action token { id name status } } }', ADMIN_TOKEN);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    await stream.live((i) => create({ name: `probe-${i}`, scopes: ['email_full'] }), (e) => /^probe-/.test(e.data?.token_events?.token?.name));
    const made = await create({ name: 'Streamed', scopes: ['email_full'] });
    const event = await stream.next((e) => e.data?.token_events?.token?.name === 'Streamed');
    stream.close();
    expect(event.data.token_events).toEqual({
      action: 'created',
      token: { id: made.body.data.id, name: 'Streamed', status: 'unpause' },
    });
  });

  it('a domain-limited subscriber hears only about its domain\'s tokens', async () => {
    const mine = await seedDomain(s);
    const other = await seedDomain(s);
    const limited = await tokenWith(s, ['tokens_full'], mine.id);
    const stream = await subscribe(s, 'subscription { token_events { action token { name } } }', limited);
    await stream.live((i) => create({ name: `mine-probe-${i}`, scopes: ['email_full'], domain_id: mine.id }), (e) => /^mine-probe-/.test(e.data?.token_events?.token?.name));
    await create({ name: 'Other domain token', scopes: ['email_full'], domain_id: other.id });
    await create({ name: 'My domain token', scopes: ['email_full'], domain_id: mine.id });
    await stream.next((e) => e.data?.token_events?.token?.name === 'My domain token');
    stream.close();
    // NOTIFY delivers in commit order: had the other domain's event been let through, it would be here.
    // The subscriber's own token (`t-tokens_full`, of this domain) may be heard too: notices go
    // out after commit, batched, so its creation can reach a stream opened right after it.
    const heard = stream.events.map((e) => e.data.token_events.token.name).filter((n: string) => !/^mine-probe-/.test(n) && n !== 't-tokens_full');
    expect(heard).toEqual(['My domain token']);
  });

  it('refuses a subscription without a valid token', async () => {
    const res = await fetch(`${s.url}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { token_events { action } }' }),
    });
    const text = await res.text();
    expect(text).toContain('Unauthenticated.');
  });
});

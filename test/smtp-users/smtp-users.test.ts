import pg from 'pg';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const KEYS = ['accessed_at', 'created_at', 'domain_id', 'enabled', 'id', 'name', 'port', 'server', 'username'];
const CREATED_KEYS = [...KEYS, 'password'].sort();
const NOT_FOUND = { message: 'Resource not found.' };
const base = (domainId: string) => `/domains/${domainId}/smtp-users`;

async function create(body: Record<string, unknown>, opts: { domainId?: string; token?: string } = {}) {
  return s.rest('POST', base(opts.domainId ?? domain.id), { body, token: opts.token });
}

async function made(name = 'relay', domainId = domain.id) {
  const res = await create({ name }, { domainId });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
}

function invalid(key: string, message: string) {
  return { message: 'The given data was invalid.', errors: { [key]: [message] } };
}

describe('POST /v1/domains/{domain_id}/smtp-users', () => {
  it('answers 201 with the record and the password, shown this once', async () => {
    const res = await create({ name: 'Relay' });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(d).sort()).toEqual(CREATED_KEYS);
    const { config } = s.app.services;
    expect(d).toMatchObject({
      name: 'Relay',
      enabled: true,
      accessed_at: null,
      domain_id: domain.id,
      server: config.SMTP_PUBLIC_HOST,
      port: config.SMTP_PUBLIC_PORT ?? config.SMTP_PORT,
    });
    expect(Number.isInteger(d.port)).toBe(true);
    expect(d.username).toBe(`${d.username.slice(0, 9)}@${domain.name}`);
    expect(d.username).toMatch(/^MS_[a-z0-9]{6}@/);
    expect(typeof d.password).toBe('string');
    expect(d.password.length).toBeGreaterThanOrEqual(32);
    expect(d.created_at).toMatch(ISO);

    const again = await s.rest('GET', `${base(domain.id)}/${d.id}`);
    expect(again.body.data).not.toHaveProperty('password');
    const list = await s.rest('GET', base(domain.id));
    for (const u of list.body.data) expect(u).not.toHaveProperty('password');
  });

  it('takes enabled: false, and draws a different username each time', async () => {
    const off = await create({ name: 'Off', enabled: false });
    expect(off.status).toBe(201);
    expect(off.body.data.enabled).toBe(false);
    const a = await made('a');
    const b = await made('b');
    expect(a.username).not.toBe(b.username);
    expect(a.password).not.toBe(b.password);
  });

  it('stores only a scrypt hash of the password', async () => {
    const u = await made('hashed');
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    const { rows } = await db.query('select * from smtp_users where id = $1', [u.id]);
    await db.end();
    expect(rows).toHaveLength(1);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(rows[0])).not.toContain(u.password);
    expect(rows[0].username).toBe(u.username);
  });

  it.each([
    [{}, 'name', 'The name field is required.'],
    [{ name: '' }, 'name', 'The name field is required.'],
    [{ name: '   ' }, 'name', 'The name field is required.'],
    [{ name: 'x'.repeat(51) }, 'name', 'The name may not be greater than 50 characters.'],
    [{ name: 42 }, 'name', 'The name must be a string.'],
    [{ name: 'n', enabled: 'yes' }, 'enabled', 'The enabled field must be true or false.'],
    [{ name: 'n', enabled: 1 }, 'enabled', 'The enabled field must be true or false.'],
  ])('422 for %j', async (body, key, message) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('accepts a name of exactly 50 characters', async () => {
    const res = await create({ name: 'x'.repeat(50) });
    expect(res.status).toBe(201);
  });

  it('404 for an unknown domain', async () => {
    const res = await create({ name: 'n' }, { domainId: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/domains/{domain_id}/smtp-users', () => {
  it('lists the domain\'s users with exact keys and formats, only that domain\'s', async () => {
    const other = await seedDomain(s);
    const elsewhere = await made('elsewhere', other.id);
    const mine = await made('listed');
    const res = await s.rest('GET', base(domain.id));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const ids = res.body.data.map((u: any) => u.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(elsewhere.id);
    for (const u of res.body.data) {
      expect(Object.keys(u).sort()).toEqual(KEYS);
      expect(u.created_at).toMatch(ISO);
      expect(u.domain_id).toBe(domain.id);
    }
    const theirs = await s.rest('GET', base(other.id));
    expect(theirs.body.data.map((u: any) => u.id)).toEqual([elsewhere.id]);
  });

  it('pages with page and limit (default 25)', async () => {
    const d = await seedDomain(s);
    for (let i = 0; i < 27; i++) await made(`page-${i}`, d.id);
    const all = await s.rest('GET', base(d.id));
    expect(all.body.data).toHaveLength(25);
    const first = await s.rest('GET', `${base(d.id)}?limit=10&page=1`);
    const third = await s.rest('GET', `${base(d.id)}?limit=10&page=3`);
    expect(first.body.data).toHaveLength(10);
    expect(third.body.data).toHaveLength(7);
    const seen = new Set(first.body.data.map((u: any) => u.id));
    for (const u of third.body.data) expect(seen.has(u.id)).toBe(false);
  });

  it.each([
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['limit=abc', 'limit', 'The limit must be an integer.'],
    ['page=0', 'page', 'The page must be at least 1.'],
    ['page=x', 'page', 'The page must be an integer.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `${base(domain.id)}?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('404 for an unknown domain', async () => {
    const res = await s.rest('GET', base('nope'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/domains/{domain_id}/smtp-users/{id}', () => {
  it('answers the user; 404 when unknown or under another domain', async () => {
    const u = await made('single');
    const res = await s.rest('GET', `${base(domain.id)}/${u.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(KEYS);
    const { password: _password, ...record } = u;
    expect(res.body.data).toEqual(record);

    const other = await seedDomain(s);
    for (const path of [`${base(domain.id)}/nope`, `${base(other.id)}/${u.id}`, `${base('nope')}/${u.id}`]) {
      const miss = await s.rest('GET', path);
      expect([path, miss.status]).toEqual([path, 404]);
      expect(miss.body).toEqual(NOT_FOUND);
    }
  });
});

describe('PUT /v1/domains/{domain_id}/smtp-users/{id}', () => {
  it('renames and disables; 200 without the password', async () => {
    const u = await made('before');
    const renamed = await s.rest('PUT', `${base(domain.id)}/${u.id}`, { body: { name: 'after' } });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.body.data).sort()).toEqual(KEYS);
    expect(renamed.body.data).toMatchObject({ id: u.id, name: 'after', enabled: true, username: u.username });
    const off = await s.rest('PUT', `${base(domain.id)}/${u.id}`, { body: { enabled: false } });
    expect(off.body.data).toMatchObject({ name: 'after', enabled: false });
    const both = await s.rest('PUT', `${base(domain.id)}/${u.id}`, { body: { name: 'both', enabled: true } });
    expect(both.body.data).toMatchObject({ name: 'both', enabled: true });
    const same = await s.rest('PUT', `${base(domain.id)}/${u.id}`, { body: {} });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ name: 'both', enabled: true });
    expect((await s.rest('GET', `${base(domain.id)}/${u.id}`)).body.data).toMatchObject({ name: 'both', enabled: true });
  });

  it.each([
    [{ name: 'y'.repeat(51) }, 'name', 'The name may not be greater than 50 characters.'],
    [{ name: '' }, 'name', 'The name field is required.'],
    [{ name: 7 }, 'name', 'The name must be a string.'],
    [{ enabled: 'no' }, 'enabled', 'The enabled field must be true or false.'],
  ])('422 for %j', async (body, key, message) => {
    const u = await made('bad update');
    const res = await s.rest('PUT', `${base(domain.id)}/${u.id}`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('404 when unknown or under another domain', async () => {
    const u = await made('put-miss');
    const other = await seedDomain(s);
    for (const path of [`${base(domain.id)}/nope`, `${base(other.id)}/${u.id}`]) {
      const res = await s.rest('PUT', path, { body: { name: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('DELETE /v1/domains/{domain_id}/smtp-users/{id}', () => {
  it('answers an empty 204; the user is gone from get and list', async () => {
    const u = await made('doomed');
    const other = await seedDomain(s);
    expect((await s.rest('DELETE', `${base(other.id)}/${u.id}`)).status).toBe(404);
    const res = await s.rest('DELETE', `${base(domain.id)}/${u.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const gone = await s.rest('GET', `${base(domain.id)}/${u.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
    const list = await s.rest('GET', `${base(domain.id)}?limit=100`);
    expect(list.body.data.map((x: any) => x.id)).not.toContain(u.id);
    const again = await s.rest('DELETE', `${base(domain.id)}/${u.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});

describe('auth', () => {
  const routes = (domainId: string, id: string): [string, string, unknown?][] => [
    ['GET', base(domainId)],
    ['GET', `${base(domainId)}/${id}`],
    ['POST', base(domainId), { name: 'x' }],
    ['PUT', `${base(domainId)}/${id}`, { name: 'x' }],
    ['DELETE', `${base(domainId)}/${id}`],
  ];

  it('401 without a token or with an unknown one', async () => {
    const u = await made('auth');
    for (const token of [null, 'mlsn.unknown']) {
      for (const [method, path, body] of routes(domain.id, u.id)) {
        const res = await s.rest(method, path, { token, body });
        expect([method, path, res.status]).toEqual([method, path, 401]);
        expect(res.body).toEqual({ message: 'Unauthenticated.' });
      }
    }
  });

  it('403 without the scope: reads need smtp_users_read, writes smtp_users_full', async () => {
    const u = await made('scoped');
    const none = await tokenWith(s, ['domains_full']);
    for (const [method, path, body] of routes(domain.id, u.id)) {
      const res = await s.rest(method, path, { token: none, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(typeof res.body.message).toBe('string');
    }
    const read = await tokenWith(s, ['smtp_users_read']);
    expect((await s.rest('GET', base(domain.id), { token: read })).status).toBe(200);
    expect((await s.rest('GET', `${base(domain.id)}/${u.id}`, { token: read })).status).toBe(200);
    for (const [method, path, body] of routes(domain.id, u.id).slice(2)) {
      expect((await s.rest(method, path, { token: read, body })).status).toBe(403);
    }
    const full = await tokenWith(s, ['smtp_users_full']);
    expect((await s.rest('GET', `${base(domain.id)}/${u.id}`, { token: full })).status).toBe(200);
  });

  it('403 for a token limited to another domain; its own domain works', async () => {
    const u = await made('limited');
    const mine = await seedDomain(s);
    const limited = await tokenWith(s, ['smtp_users_full'], mine.id);
    for (const [method, path, body] of routes(domain.id, u.id)) {
      const res = await s.rest(method, path, { token: limited, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(typeof res.body.message).toBe('string');
    }
    const own = await create({ name: 'own' }, { domainId: mine.id, token: limited });
    expect(own.status).toBe(201);
    const list = await s.rest('GET', base(mine.id), { token: limited });
    expect(list.body.data.map((x: any) => x.id)).toEqual([own.body.data.id]);
  });

  it('another account gets 404 for these domains and users, and never lists them', async () => {
    const u = await made('isolated');
    const other = await createAccount(s);
    for (const [method, path, body] of routes(domain.id, u.id)) {
      const res = await s.rest(method, path, { token: other.token, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirs = await create({ name: 'theirs' }, { domainId: theirDomain.id, token: other.token });
    expect(theirs.status).toBe(201);
    // Their domain with my user's id: still 404, and their list holds only their user.
    expect((await s.rest('GET', `${base(theirDomain.id)}/${u.id}`, { token: other.token })).status).toBe(404);
    const list = await s.rest('GET', base(theirDomain.id), { token: other.token });
    expect(list.body.data.map((x: any) => x.id)).toEqual([theirs.body.data.id]);
    // And I cannot reach theirs.
    expect((await s.rest('GET', base(theirDomain.id))).status).toBe(404);
    expect((await s.rest('GET', `${base(theirDomain.id)}/${theirs.body.data.id}`)).status).toBe(404);
    expect((await s.rest('GET', `${base(domain.id)}/${u.id}`)).status).toBe(200);
  });
});

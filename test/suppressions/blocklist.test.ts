import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const PATH = '/suppressions/blocklist';
const KEYS = ['created_at', 'domain', 'id', 'pattern', 'type', 'updated_at'];
const DOMAIN_KEYS = ['created_at', 'id', 'name', 'updated_at'];
let n = 0;
const address = () => `bl${++n}@example.org`;
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const add = (body: Record<string, unknown>, token?: string) => s.rest('POST', PATH, { body, token });

describe('POST and GET /v1/suppressions/blocklist', () => {
  it('adds addresses and patterns for a domain (201) and lists them newest first', async () => {
    const d = await seedDomain(s);
    const email = address();
    const res = await add({ domain_id: d.id, recipients: [email.toUpperCase()], patterns: ['^.*@spam\\.test$'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    const [byEmail, byPattern] = res.body.data;
    expect(byEmail).toMatchObject({ type: 'email', pattern: email });
    expect(byPattern).toMatchObject({ type: 'pattern', pattern: '^.*@spam\\.test$' });
    for (const e of res.body.data) {
      expect(Object.keys(e).sort()).toEqual(KEYS);
      expect(e.created_at).toMatch(ISO);
      expect(e.updated_at).toMatch(ISO);
      expect(Object.keys(e.domain).sort()).toEqual(DOMAIN_KEYS);
      expect(e.domain).toMatchObject({ id: d.id, name: d.name });
      expect(e.domain.created_at).toMatch(ISO);
    }
    const list = await s.rest('GET', `${PATH}?domain_id=${d.id}`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['data']);
    expect(list.body.data.map((e: any) => e.id).sort()).toEqual([byEmail.id, byPattern.id].sort());
  });

  it('adds account-wide entries when domain_id is absent; adding again makes no duplicate', async () => {
    const pattern = `^acct${++n}@`;
    const first = await add({ patterns: [pattern] });
    expect(first.status).toBe(201);
    expect(first.body.data[0].domain).toBeNull();
    const again = await add({ patterns: [pattern, pattern] });
    expect(again.body.data).toHaveLength(1);
    expect(again.body.data[0].id).toBe(first.body.data[0].id);
    const all = (await s.rest('GET', `${PATH}?limit=100`)).body.data.filter((e: any) => e.pattern === pattern);
    expect(all).toHaveLength(1);
  });

  it('pages with limit 10..100, default 10', async () => {
    const d = await seedDomain(s);
    await add({ domain_id: d.id, recipients: Array.from({ length: 12 }, address) });
    expect((await s.rest('GET', `${PATH}?domain_id=${d.id}`)).body.data).toHaveLength(10);
    expect((await s.rest('GET', `${PATH}?domain_id=${d.id}&page=2`)).body.data).toHaveLength(2);
    expect((await s.rest('GET', `${PATH}?domain_id=${d.id}&limit=25`)).body.data).toHaveLength(12);
    for (const q of ['limit=9', 'limit=101', 'page=0', 'limit=ten']) {
      const res = await s.rest('GET', `${PATH}?${q}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([q.split('=')[0]]);
    }
  });

  it('404 for an unknown or another account\'s domain_id on GET', async () => {
    const other = await createAccount(s, 'Blocklist 404');
    const theirs = await seedDomain(s, { token: other.token });
    for (const id of ['nope', theirs.id]) {
      const res = await s.rest('GET', `${PATH}?domain_id=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Resource not found.' });
    }
  });

  it.each([
    [{}, 'recipients', 'The recipients field is required when patterns is not present.'],
    [{ recipients: [], patterns: [] }, 'recipients', 'The recipients field is required when patterns is not present.'],
    [{ domain_id: 'nope', recipients: ['a@example.org'] }, 'domain_id', 'The selected domain id is invalid.'],
    [{ recipients: ['a@example.org', 'nope'] }, 'recipients.1', 'The recipients.1 must be a valid email address.'],
    [{ patterns: ['ok', '(unclosed'] }, 'patterns.1', 'The patterns.1 must be a valid regular expression.'],
    [{ patterns: ['(a)\\1'] }, 'patterns.0', 'The patterns.0 uses syntax blocklist patterns do not support (such as backreferences or lookaround); they use RE2 syntax.'],
    [{ patterns: ['[a-z]{999}[a-z]{999}'] }, 'patterns.0', 'The patterns.0 is too complex; write it with smaller repetition counts ({n}).'],
    [{ patterns: ['a'.repeat(192)] }, 'patterns.0', 'The patterns.0 may not be greater than 191 characters.'],
    [{ patterns: [''] }, 'patterns.0', 'The patterns.0 field is required.'],
    [{ patterns: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, 'patterns', 'The patterns may not have more than 1000 items.'],
    [{ recipients: Array.from({ length: 1001 }, (_, i) => `m${i}@example.org`) }, 'recipients', 'The recipients may not have more than 1000 items.'],
    [{ recipients: 'a@example.org' }, 'recipients', 'The recipients must be an array.'],
  ])('422 on POST %#', async (body, key, text) => {
    const res = await add(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ [key]: [text] }));
  });
});

describe('DELETE /v1/suppressions/blocklist', () => {
  it('removes by ids within the named scope, and all of a domain or of the account', async () => {
    const d = await seedDomain(s);
    const scoped = (await add({ domain_id: d.id, recipients: [address(), address()] })).body.data;
    const wide = (await add({ recipients: [address()] })).body.data;

    // An account-wide id is not an entry of the domain, and the reverse.
    const cross = await s.rest('DELETE', PATH, { body: { domain_id: d.id, ids: [wide[0].id] } });
    expect(cross.body).toEqual(invalid({ 'ids.0': ['The selected ids.0 is invalid.'] }));
    expect((await s.rest('DELETE', PATH, { body: { ids: [scoped[0].id] } })).status).toBe(422);
    expect((await s.rest('DELETE', PATH, { body: { domain_id: d.id } })).body).toEqual(
      invalid({ ids: ['The ids field is required when all is not present.'] }),
    );
    expect((await s.rest('DELETE', PATH, { body: { domain_id: 'nope', all: true } })).body).toEqual(
      invalid({ domain_id: ['The selected domain id is invalid.'] }),
    );

    const one = await s.rest('DELETE', PATH, { body: { domain_id: d.id, ids: [scoped[0].id] } });
    expect(one.status).toBe(204);
    expect(one.text).toBe('');
    expect((await s.rest('GET', `${PATH}?domain_id=${d.id}`)).body.data.map((e: any) => e.id)).toEqual([scoped[1].id]);

    expect((await s.rest('DELETE', PATH, { body: { ids: [wide[0].id] } })).status).toBe(204);
    await add({ recipients: [address()] });
    expect((await s.rest('DELETE', PATH, { body: { all: true } })).status).toBe(204);
    const left = (await s.rest('GET', `${PATH}?limit=100`)).body.data;
    expect(left.filter((e: any) => e.domain === null)).toEqual([]);
    expect(left.map((e: any) => e.id)).toContain(scoped[1].id);
    expect((await s.rest('DELETE', PATH, { body: { domain_id: d.id, all: true } })).status).toBe(204);
    expect((await s.rest('GET', `${PATH}?domain_id=${d.id}`)).body.data).toEqual([]);
  });
});

describe('blocklist access', () => {
  it('401 without a token; 403 without the scope', async () => {
    expect((await s.rest('GET', PATH, { token: null })).status).toBe(401);
    expect((await s.rest('POST', PATH, { token: null, body: { patterns: ['x'] } })).status).toBe(401);
    const read = await tokenWith(s, ['suppressions_read']);
    const none = await tokenWith(s, ['recipients_read']);
    expect((await s.rest('GET', PATH, { token: none })).status).toBe(403);
    expect((await s.rest('GET', PATH, { token: read })).status).toBe(200);
    expect((await add({ patterns: ['x'] }, read)).status).toBe(403);
    expect((await s.rest('DELETE', PATH, { token: read, body: { all: true } })).status).toBe(403);
  });

  it('a domain-limited token sees and changes only its own domain\'s entries', async () => {
    const mine = await seedDomain(s);
    const other = await seedDomain(s);
    const token = await tokenWith(s, ['suppressions_full'], mine.id);
    const wide = (await add({ recipients: [address()] })).body.data[0];
    const foreign = (await add({ domain_id: other.id, recipients: [address()] })).body.data[0];
    const own = await add({ domain_id: mine.id, recipients: [address()] }, token);
    expect(own.status).toBe(201);

    const seen = (await s.rest('GET', `${PATH}?limit=100`, { token })).body.data.map((e: any) => e.id);
    expect(seen).toEqual([own.body.data[0].id]);
    expect(seen).not.toContain(wide.id);
    expect(seen).not.toContain(foreign.id);
    expect((await s.rest('GET', `${PATH}?domain_id=${mine.id}`, { token })).body.data.map((e: any) => e.id)).toEqual([own.body.data[0].id]);

    expect((await s.rest('GET', `${PATH}?domain_id=${other.id}`, { token })).status).toBe(403);
    expect((await add({ recipients: [address()] }, token)).status).toBe(403);
    expect((await add({ domain_id: other.id, recipients: [address()] }, token)).status).toBe(403);
    expect((await s.rest('DELETE', PATH, { token, body: { ids: [wide.id] } })).status).toBe(403);
    expect((await s.rest('DELETE', PATH, { token, body: { all: true } })).status).toBe(403);
    expect((await s.rest('DELETE', PATH, { token, body: { domain_id: other.id, all: true } })).status).toBe(403);
    expect((await s.rest('DELETE', PATH, { token, body: { domain_id: mine.id, all: true } })).status).toBe(204);
  });

  it('keeps accounts apart', async () => {
    const other = await createAccount(s, 'Blocklist iso');
    const theirs = (await add({ patterns: [`^theirs${++n}`] }, other.token)).body.data[0];
    const ours = (await add({ patterns: [`^ours${++n}`] })).body.data[0];
    const ourList = (await s.rest('GET', `${PATH}?limit=100`)).body.data.map((e: any) => e.id);
    expect(ourList).toContain(ours.id);
    expect(ourList).not.toContain(theirs.id);
    expect((await s.rest('GET', PATH, { token: other.token })).body.data.map((e: any) => e.id)).toEqual([theirs.id]);
    expect((await s.rest('DELETE', PATH, { body: { ids: [theirs.id] } })).status).toBe(422);
    expect((await add({ domain_id: domain.id, patterns: ['x'] }, other.token)).body).toEqual(
      invalid({ domain_id: ['The selected domain id is invalid.'] }),
    );
  });
});

describe('concurrent adds', () => {
  it('eight identical requests at once leave one entry each', async () => {
    const d = await seedDomain(s);
    const body = { domain_id: d.id, recipients: ['race@example.org'], patterns: ['^race-.*@example\\.org$'] };
    const answers = await Promise.all(Array.from({ length: 8 }, () => s.rest('POST', '/suppressions/blocklist', { body })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const list = await s.rest('GET', `/suppressions/blocklist?domain_id=${d.id}&limit=100`);
    expect(list.body.data.map((e: any) => e.pattern).sort()).toEqual(['^race-.*@example\\.org$', 'race@example.org']);

    const hb = { domain_id: d.id, recipients: ['bounce-race@example.org'] };
    const again = await Promise.all(Array.from({ length: 8 }, () => s.rest('POST', '/suppressions/hard-bounces', { body: hb })));
    expect(again.map((a) => a.status)).toEqual(Array(8).fill(201));
    const bounces = await s.rest('GET', `/suppressions/hard-bounces?domain_id=${d.id}&limit=100`);
    expect(bounces.body.data).toHaveLength(1);
  });
});

import pg from 'pg';
import { seedDomain, seedRecipient } from '../support/factories.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const ITEM_KEYS = ['created_at', 'deleted_at', 'email', 'id', 'updated_at'];
let n = 0;
const address = () => `person${++n}@example.org`;

describe('GET /v1/recipients', () => {
  it('answers the full pager, newest first, filtered by domain', async () => {
    const other = await seedDomain(s);
    const a = await seedRecipient(s, domain.id, address());
    const b = await seedRecipient(s, other.id, address());
    const all = await s.rest('GET', '/recipients?limit=100');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(all.body.meta).sort()).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    expect(all.body.data.map((r: any) => r.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    for (const r of all.body.data) {
      expect(Object.keys(r).sort()).toEqual(ITEM_KEYS);
      expect(r.created_at).toMatch(PLAIN);
      expect(r.deleted_at).toBe('');
    }
    const filtered = await s.rest('GET', `/recipients?domain_id=${other.id}`);
    expect(filtered.body.data.map((r: any) => r.id)).toEqual([b.id]);
    expect((await s.rest('GET', '/recipients?domain_id=nope')).status).toBe(404);
  });

  it.each(['limit=9', 'limit=101', 'page=0', 'limit=x'])('422 for ?%s', async (q) => {
    const res = await s.rest('GET', `/recipients?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
  });
});

describe('GET /v1/recipients/{id}', () => {
  it('adds emails and the domain', async () => {
    const r = await seedRecipient(s, domain.id, address());
    const res = await s.rest('GET', `/recipients/${r.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([...ITEM_KEYS, 'domain', 'emails'].sort());
    expect(res.body.data).toMatchObject({ id: r.id, email: r.email, emails: [], domain: { id: domain.id, name: domain.name } });
    expect(res.body.data.domain).toHaveProperty('domain_settings');
    expect(res.body.data.domain.created_at).toMatch(PLAIN);
    expect((await s.rest('GET', '/recipients/nope')).body).toEqual({ message: 'Resource not found.' });
  });
});

describe('DELETE /v1/recipients/{id}', () => {
  it('hides the recipient from then on, keeping the row', async () => {
    const r = await seedRecipient(s, domain.id, address());
    const res = await s.rest('DELETE', `/recipients/${r.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/recipients/${r.id}`)).status).toBe(404);
    expect((await s.rest('DELETE', `/recipients/${r.id}`)).status).toBe(404);
    const list = await s.rest('GET', '/recipients?limit=100');
    expect(list.body.data.map((x: any) => x.id)).not.toContain(r.id);
    const byDomain = await s.rest('GET', `/domains/${domain.id}/recipients?limit=100`);
    expect(byDomain.body.data.map((x: any) => x.id)).not.toContain(r.id);
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    const { rows } = await db.query('select deleted_at from recipients where id = $1', [r.id]);
    await db.end();
    expect(rows[0].deleted_at).not.toBeNull();
  });
});

describe('access', () => {
  it('401 without a token; 403 without the scope; read scope cannot delete', async () => {
    const r = await seedRecipient(s, domain.id, address());
    expect((await s.rest('GET', '/recipients', { token: null })).status).toBe(401);
    const weak = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', '/recipients', { token: weak })).status).toBe(403);
    const reader = await tokenWith(s, ['recipients_read']);
    expect((await s.rest('GET', `/recipients/${r.id}`, { token: reader })).status).toBe(200);
    expect((await s.rest('DELETE', `/recipients/${r.id}`, { token: reader })).status).toBe(403);
  });

  it('a domain-limited token sees only its domain\'s recipients', async () => {
    const other = await seedDomain(s);
    const mine = await seedRecipient(s, domain.id, address());
    const theirs = await seedRecipient(s, other.id, address());
    const limited = await tokenWith(s, ['recipients_full'], domain.id);
    const list = await s.rest('GET', '/recipients?limit=100', { token: limited });
    const ids = list.body.data.map((x: any) => x.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect((await s.rest('GET', `/recipients/${theirs.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('DELETE', `/recipients/${theirs.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', `/recipients?domain_id=${other.id}`, { token: limited })).status).toBe(403);
  });

  it('another account gets 404 and an empty list', async () => {
    const r = await seedRecipient(s, domain.id, address());
    const other = await createAccount(s);
    expect((await s.rest('GET', `/recipients/${r.id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('DELETE', `/recipients/${r.id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('GET', '/recipients', { token: other.token })).body.data).toEqual([]);
  });
});

describe('GraphQL surface', () => {
  it('lists, reads and deletes recipients', async () => {
    const r = await seedRecipient(s, domain.id, address());
    const one = await s.gql('query($id: ID!) { recipient(recipient_id: $id) { id email emails { id } domain { id } } }', { id: r.id });
    expect(one.body.data.recipient).toEqual({ id: r.id, email: r.email, emails: [], domain: { id: domain.id } });
    const list = await s.gql('{ recipients(limit: 10) { data { id } meta { total } } }');
    expect(list.body.data.recipients.meta.total).toBeGreaterThan(0);
    const del = await s.gql('mutation($id: ID!) { delete_recipient(recipient_id: $id) }', { id: r.id });
    expect(del.body.data.delete_recipient).toBe(true);
    expect((await s.gql('query($id: ID!) { recipient(recipient_id: $id) { id } }', { id: r.id })).status).toBe(404);
  });
});

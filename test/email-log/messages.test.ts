import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { address, emailsOf, send } from './helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
let other: { id: string; name: string };
let first: string;
let second: string;
let third: string;
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  other = await seedDomain(s, { dkim: true });
  first = await send(s, domain, { to: [address('a'), address('b')], tags: ['x'] });
  second = await send(s, domain);
  third = await send(s, other);
  for (const m of [first, second, third]) await emailsOf(s, m);
});
afterAll(async () => {
  await s?.close();
});

describe('GET /v1/messages', () => {
  it('lists each accepted send, newest first', async () => {
    const res = await s.rest('GET', '/messages');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((m: any) => m.id)).toEqual([third, second, first]);
    for (const m of res.body.data) {
      expect(Object.keys(m).sort()).toEqual(['created_at', 'id', 'updated_at']);
      expect(m.created_at).toMatch(ISO);
      expect(m.updated_at).toMatch(ISO);
    }
    expect((await s.rest('GET', '/messages?limit=10&page=2')).body.data).toEqual([]);
  });

  it.each(['limit=9', 'limit=101', 'page=0'])('422 for ?%s', async (q) => {
    const res = await s.rest('GET', `/messages?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
  });
});

describe('GET /v1/messages/{message_id}', () => {
  it('adds its emails, in request order, and its domain', async () => {
    const res = await s.rest('GET', `/messages/${first}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(['created_at', 'domain', 'emails', 'id', 'updated_at']);
    expect(d.id).toBe(first);
    expect(d.created_at).toMatch(ISO);
    expect(d.emails).toHaveLength(2);
    expect(d.emails[0].to).toMatch(/^a\d/);
    expect(d.emails[1].to).toMatch(/^b\d/);
    for (const e of d.emails) {
      expect(e).toMatchObject({ message_id: first, status: 'delivered', tags: ['x'], domain_id: domain.id });
      expect(e.created_at).toMatch(PLAIN);
    }
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name, is_verified: true });
    expect(d.domain).toHaveProperty('domain_settings');
    expect(d.domain).toHaveProperty('mx');
    expect(d.domain.created_at).toMatch(PLAIN);
  });

  it('404 when unknown', async () => {
    const res = await s.rest('GET', '/messages/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('access', () => {
  it('401, 403 without the scope, 403 across domains for a limited token', async () => {
    expect((await s.rest('GET', '/messages', { token: null })).status).toBe(401);
    const none = await tokenWith(s, ['email_full']);
    expect((await s.rest('GET', '/messages', { token: none })).status).toBe(403);
    expect((await s.rest('GET', `/messages/${first}`, { token: none })).status).toBe(403);
    const limited = await tokenWith(s, ['activity_read'], other.id);
    expect((await s.rest('GET', '/messages', { token: limited })).body.data.map((m: any) => m.id)).toEqual([third]);
    expect((await s.rest('GET', `/messages/${third}`, { token: limited })).status).toBe(200);
    expect((await s.rest('GET', `/messages/${first}`, { token: limited })).status).toBe(403);
  });

  it('another account sees none of it', async () => {
    const acct = await createAccount(s);
    expect((await s.rest('GET', '/messages', { token: acct.token })).body.data).toEqual([]);
    expect((await s.rest('GET', `/messages/${first}`, { token: acct.token })).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('messages and message', async () => {
    const list = await s.gql('query { messages(limit: 10) { id created_at } }');
    expect(list.body.data.messages.map((m: any) => m.id)).toEqual([third, second, first]);
    const one = await s.gql('query($id: ID!) { message(message_id: $id) { id emails { to status } domain { id name } } }', { id: second });
    expect(one.body.data.message).toMatchObject({ id: second, domain: { id: domain.id }, emails: [{ status: 'delivered' }] });
    const missing = await s.gql('query { message(message_id: "nope") { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

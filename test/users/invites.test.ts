import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { INVITE_KEYS, inviteAndAccept, inviteLink, mailsTo, uniqueEmail } from './helpers.js';

let s: TestServer;
let other: { id: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  other = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const invite = async (body: Record<string, unknown> = {}, token?: string) => {
  const res = await s.rest('POST', '/users', { token, body: { email: uniqueEmail('inv'), role: 'manager', ...body } });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.data;
};

describe('GET /v1/invites', () => {
  it('lists pending invites with exact keys, and pages', async () => {
    for (let i = 0; i < 11; i++) await invite();
    const res = await s.rest('GET', '/invites');
    expect(res.status).toBe(200);
    // COMPAT.md Pagers: a list SPEC.md leaves open answers the full pager when it pages.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.data.length).toBeGreaterThanOrEqual(11);
    for (const i of res.body.data) {
      expect(Object.keys(i).sort()).toEqual(INVITE_KEYS);
      expect(i.created_at).toMatch(ISO);
      expect(i.updated_at).toMatch(ISO);
      expect(i.data).toBeNull();
    }
    const first = await s.rest('GET', '/invites?limit=10');
    const second = await s.rest('GET', '/invites?limit=10&page=2');
    expect(first.body.data).toHaveLength(10);
    const ids = new Set(first.body.data.map((i: any) => i.id));
    expect(second.body.data.length).toBeGreaterThan(0);
    for (const i of second.body.data) expect(ids.has(i.id)).toBe(false);
  });

  it.each([
    ['limit=5', 'limit', 'The limit must be at least 10.'],
    ['limit=500', 'limit', 'The limit may not be greater than 100.'],
    ['page=-1', 'page', 'The page must be at least 1.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/invites?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
  });
});

describe('GET /v1/invites/{id}', () => {
  it('answers the invite, and 404 for an unknown id', async () => {
    const made = await invite({ role: 'Custom User', permissions: ['read-activity'] });
    const res = await s.rest('GET', `/invites/${made.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: made });
    const missing = await s.rest('GET', '/invites/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('POST /v1/invites/{id}/resend', () => {
  it('sends the invitation again with a working link', async () => {
    const made = await invite();
    await mailsTo(s, made.email, 1);
    const res = await s.rest('POST', `/invites/${made.id}/resend`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(INVITE_KEYS);
    expect(res.body.data.id).toBe(made.id);
    const mails = await mailsTo(s, made.email, 2);
    expect(mails).toHaveLength(2);
    expect(mails[0].subject).toBe(mails[1].subject);
    const link = await inviteLink(s, made.email, 2);
    expect((await fetch(link)).status).toBe(200);
    const missing = await s.rest('POST', '/invites/nope/resend');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('DELETE /v1/invites/{id}', () => {
  it('answers an empty 204; the invite is gone and the address free again', async () => {
    const made = await invite();
    const res = await s.rest('DELETE', `/invites/${made.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/invites/${made.id}`)).status).toBe(404);
    expect((await s.rest('DELETE', `/invites/${made.id}`)).body).toEqual({ message: 'Resource not found.' });
    expect((await s.rest('POST', '/users', { body: { email: made.email, role: 'manager' } })).status).toBe(200);
  });
});

describe('auth', () => {
  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'mlsn.unknown']) {
      for (const path of ['/users', '/invites']) {
        const res = await s.rest('GET', path, { token });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'Unauthenticated.' });
      }
    }
  });

  it('403 without the users scopes; users_read reads but cannot write', async () => {
    const { user } = await inviteAndAccept(s, { email: uniqueEmail('target'), role: 'designer' });
    const inv = await invite();
    const none = await tokenWith(s, ['email_full', 'domains_full']);
    const read = await tokenWith(s, ['users_read']);
    const reads: [string, string, unknown?][] = [
      ['GET', '/users'],
      ['GET', `/users/${user.id}`],
      ['GET', '/invites'],
      ['GET', `/invites/${inv.id}`],
    ];
    const writes: [string, string, unknown?][] = [
      ['POST', '/users', { email: uniqueEmail(), role: 'manager' }],
      ['PUT', `/users/${user.id}`, { role: 'manager' }],
      ['DELETE', `/users/${user.id}`],
      ['POST', `/invites/${inv.id}/resend`],
      ['DELETE', `/invites/${inv.id}`],
    ];
    for (const [method, path, body] of [...reads, ...writes]) {
      const res = await s.rest(method, path, { token: none, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(typeof res.body.message).toBe('string');
    }
    for (const [method, path] of reads) {
      expect([method, path, (await s.rest(method, path, { token: read })).status]).toEqual([method, path, 200]);
    }
    for (const [method, path, body] of writes) {
      const res = await s.rest(method, path, { token: read, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  it('a domain-limited token stays within its domain (403 beyond it)', async () => {
    const mine = await seedDomain(s);
    const theirs = await seedDomain(s);
    // It holds what it grants below (a designer's templates, an accountant's analytics): test/users/grant-matrix.test.ts.
    const limited = await tokenWith(s, ['users_full', 'templates_full', 'analytics_read'], mine.id);
    const elsewhere = await inviteAndAccept(s, { email: uniqueEmail('else'), role: 'manager', domains: [theirs.id] });
    const everywhere = await inviteAndAccept(s, { email: uniqueEmail('every'), role: 'manager' });
    const pendingElsewhere = await invite({ domains: [theirs.id] });

    // Reading someone who cannot work on its domain, or changing anyone who reaches further: 403.
    expect((await s.rest('GET', `/users/${elsewhere.user.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', `/invites/${pendingElsewhere.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', `/users/${everywhere.user.id}`, { token: limited })).status).toBe(200);
    expect((await s.rest('PUT', `/users/${everywhere.user.id}`, { token: limited, body: { role: 'designer' } })).status).toBe(403);
    expect((await s.rest('DELETE', `/users/${elsewhere.user.id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('POST', `/invites/${pendingElsewhere.id}/resend`, { token: limited })).status).toBe(403);
    expect((await s.rest('DELETE', `/invites/${pendingElsewhere.id}`, { token: limited })).status).toBe(403);
    const grant = await s.rest('POST', '/users', { token: limited, body: { email: uniqueEmail(), role: 'manager', domains: [theirs.id] } });
    expect(grant.status).toBe(403);
    expect(grant.body).toEqual({ message: 'This token is limited to another domain.' });

    // Lists leave out those who cannot work on its domain.
    const users = (await s.rest('GET', '/users?limit=100', { token: limited })).body.data.map((u: any) => u.id);
    expect(users).toContain(everywhere.user.id);
    expect(users).not.toContain(elsewhere.user.id);
    const invites = (await s.rest('GET', '/invites?limit=100', { token: limited })).body.data.map((i: any) => i.id);
    expect(invites).not.toContain(pendingElsewhere.id);

    // What it invites is confined to its domain, and it may manage that person.
    const own = await inviteAndAccept(s, { email: uniqueEmail('own'), role: 'designer' }, limited);
    expect(own.user.domains.map((d: any) => d.id)).toEqual([mine.id]);
    const upd = await s.rest('PUT', `/users/${own.user.id}`, { token: limited, body: { role: 'accountant' } });
    expect(upd.status).toBe(200);
    expect(upd.body.data.domains.map((d: any) => d.id)).toEqual([mine.id]);
    expect((await s.rest('DELETE', `/users/${own.user.id}`, { token: limited })).status).toBe(204);
  });
});

describe('cross-account isolation', () => {
  it('another account cannot see or touch these users and invites (404)', async () => {
    const { user } = await inviteAndAccept(s, { email: uniqueEmail('mine'), role: 'manager' });
    const inv = await invite();
    const t = other.token;
    expect((await s.rest('GET', `/users/${user.id}`, { token: t })).status).toBe(404);
    expect((await s.rest('PUT', `/users/${user.id}`, { token: t, body: { role: 'admin' } })).status).toBe(404);
    expect((await s.rest('DELETE', `/users/${user.id}`, { token: t })).status).toBe(404);
    expect((await s.rest('GET', `/invites/${inv.id}`, { token: t })).status).toBe(404);
    expect((await s.rest('POST', `/invites/${inv.id}/resend`, { token: t })).status).toBe(404);
    const del = await s.rest('DELETE', `/invites/${inv.id}`, { token: t });
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ message: 'Resource not found.' });

    const theirInvite = await invite({}, t);
    const theirUsers = (await s.rest('GET', '/users?limit=100', { token: t })).body.data.map((u: any) => u.id);
    const theirInvites = (await s.rest('GET', '/invites?limit=100', { token: t })).body.data.map((i: any) => i.id);
    expect(theirUsers).not.toContain(user.id);
    expect(theirInvites).not.toContain(inv.id);
    expect(theirInvites).toContain(theirInvite.id);
    const mineNow = (await s.rest('GET', '/invites?limit=100')).body.data.map((i: any) => i.id);
    expect(mineNow).not.toContain(theirInvite.id);

    // Still there for the owner.
    expect((await s.rest('GET', `/users/${user.id}`)).status).toBe(200);
    expect((await s.rest('GET', `/invites/${inv.id}`)).status).toBe(200);
  });
});

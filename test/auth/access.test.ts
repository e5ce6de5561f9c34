import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { gqlAs, loginOk, send, userWith, type Session } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function sessionOf(access: Record<string, unknown>, token?: string): Promise<Session> {
  const u = await userWith(s, access, token);
  return loginOk(s, u.email, u.password);
}

describe('CSRF on requests a session cookie authenticates', () => {
  let manager: Session;
  beforeAll(async () => {
    manager = await sessionOf({ role: 'manager' });
  });

  // Every method needs it: a GET can change state (GET /v1/email-verification/{id}/verify), and a
  // cross-site top-level navigation carries a SameSite=Lax cookie but can set no header.
  it('needs X-CSRF-Token on every /v1 and /graphql request, GET included', async () => {
    const bareRead = await send(s, 'GET', '/v1/templates', { session: manager, csrf: false });
    expect(bareRead.status).toBe(403);
    expect(bareRead.body.message).toMatch(/CSRF/);
    const before = (await send(s, 'GET', '/v1/templates', { session: manager })).body.meta.total;
    const refused = await send(s, 'POST', '/v1/templates', { session: manager, csrf: false, body: { html: '<p>x</p>', text: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/CSRF/);
    const forged = await send(s, 'POST', '/v1/templates', { session: { ...manager, csrf: 'not-the-token' }, body: { html: '<p>x</p>', text: 'x' } });
    expect(forged.status).toBe(403);
    expect((await send(s, 'GET', '/v1/templates', { session: manager })).body.meta.total).toBe(before);

    const q = await gqlAs(s, manager, '{ domains { data { id } } }', {}, false);
    expect(q.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(q.body.data ?? null).toBeNull();
    const ok = await gqlAs(s, manager, '{ domains { data { id } } }');
    expect(ok.body.errors).toBeUndefined();

    const made = await send(s, 'POST', '/v1/templates', { session: manager, body: { html: '<p>x</p>', text: 'x' } });
    expect(made.status).toBe(201);
  });

  it('refuses a foreign Origin even with the token; its own origin passes', async () => {
    const foreign = await send(s, 'POST', '/v1/templates', {
      session: manager,
      headers: { origin: 'https://evil.example' },
      body: { html: '<p>x</p>', text: 'x' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/Cross-site/);
    const own = await send(s, 'POST', '/v1/templates', { session: manager, headers: { origin: s.url }, body: { html: '<p>x</p>', text: 'x' } });
    expect(own.status).toBe(201);
    // Logout is a session write like any other.
    expect((await send(s, 'POST', '/auth/logout', { session: manager, csrf: false })).status).toBe(403);
    expect((await send(s, 'POST', '/auth/logout', { session: manager, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await send(s, 'GET', '/auth/session', { session: manager })).status).toBe(200);
    // A foreign page cannot log a browser in either.
    expect((await send(s, 'POST', '/auth/login', { headers: { origin: 'https://evil.example' }, body: { email: 'a@b.test', password: 'x' } })).status).toBe(403);
  });

  it('runs no mutation from a GET without the CSRF token', async () => {
    const before = (await send(s, 'GET', '/v1/templates', { session: manager })).body.meta.total;
    const mutation = encodeURIComponent('mutation { create_template(html: "<p>x</p>", text: "x") { id } }');
    for (const path of [`/graphql?query=${mutation}`, `/graphql/stream?query=${mutation}`]) {
      const res = await send(s, 'GET', path, { session: manager, csrf: false, headers: { accept: 'application/json' } });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect((await send(s, 'GET', '/v1/templates', { session: manager })).body.meta.total).toBe(before);
  });

  it('applies to the SSE endpoint too, and leaves bearer requests alone', async () => {
    const stream = await send(s, 'POST', '/graphql/stream', { session: manager, csrf: false, body: { query: '{ __typename }' } });
    expect(stream.text).toMatch(/CSRF/);
    const bearer = await s.rest('POST', '/templates', { headers: { origin: 'https://evil.example' }, body: { html: '<p>x</p>', text: 'x' } });
    expect(bearer.status).toBe(201);
  });
});

describe('roles and access for session users (the declarations that guard token scopes)', () => {
  it('lets a designer work on templates but not tokens, on both surfaces', async () => {
    const designer = await sessionOf({ role: 'designer' });
    expect((await send(s, 'GET', '/v1/token', { session: designer })).status).toBe(403);
    const tokens = await gqlAs(s, designer, '{ tokens { id } }');
    expect(tokens.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const create = await gqlAs(s, designer, 'mutation { create_token(name: "x", scopes: ["email_full"]) { accessToken } }');
    expect(create.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await send(s, 'POST', '/v1/token', { session: designer, body: { name: 'x', scopes: ['email_full'] } })).status).toBe(403);
    const made = await send(s, 'POST', '/v1/templates', { session: designer, body: { html: '<p>hi</p>', text: 'hi' } });
    expect(made.status).toBe(201);
    expect((await send(s, 'GET', `/v1/templates/${made.body.data.id}`, { session: designer })).status).toBe(200);
    expect((await send(s, 'GET', '/v1/domains', { session: designer })).status).toBe(403);
  });

  it('sees a role change on the next request', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    expect((await send(s, 'GET', '/v1/domains', { session })).status).toBe(200);
    expect((await s.rest('PUT', `/users/${u.id}`, { body: { role: 'designer' } })).status).toBe(200);
    expect((await send(s, 'GET', '/v1/domains', { session })).status).toBe(403);
    expect((await s.rest('DELETE', `/users/${u.id}`)).status).toBe(204);
    expect((await send(s, 'GET', '/auth/session', { session })).status).toBe(401);
  });

  it('limits a user to their domains: one, or several', async () => {
    const [d1, d2, d3] = [await seedDomain(s), await seedDomain(s), await seedDomain(s)];
    const one = await sessionOf({ role: 'manager', domains: [d1.id] });
    expect((await send(s, 'GET', `/v1/domains/${d1.id}`, { session: one })).status).toBe(200);
    expect((await send(s, 'GET', `/v1/domains/${d2.id}`, { session: one })).status).toBe(403);
    const listed = await send(s, 'GET', '/v1/domains?limit=100', { session: one });
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([d1.id]);

    const two = await sessionOf({ role: 'manager', domains: [d1.id, d2.id] });
    expect((await send(s, 'GET', `/v1/domains/${d1.id}`, { session: two })).status).toBe(200);
    expect((await send(s, 'GET', `/v1/domains/${d2.id}`, { session: two })).status).toBe(200);
    expect((await send(s, 'GET', `/v1/domains/${d3.id}`, { session: two })).status).toBe(403);
    const t3 = await s.rest('POST', '/templates', { body: { html: '<p>x</p>', text: 'x', domain_id: d3.id } });
    expect((await send(s, 'GET', `/v1/templates/${t3.body.data.id}`, { session: two })).status).toBe(403);
    // Data of no domain (SMS) is the whole account's: refused to a domain-limited user, as to such a token.
    expect((await send(s, 'GET', '/v1/sms-numbers', { session: two })).status).toBe(403);
    // A token is of one domain or of all: a several-domain user could only make the wider kind.
    const token = await send(s, 'POST', '/v1/token', { session: two, body: { name: 'wide', scopes: ['email_full'] } });
    expect(token.status).toBe(403);
    expect(token.body.message).toMatch(/several domains/);
    expect((await send(s, 'GET', '/v1/token', { session: two })).status).toBe(403);
    // One domain: tokens of that domain, as a token of that domain may make.
    const mine = await send(s, 'POST', '/v1/token', { session: one, body: { name: 'mine', scopes: ['email_full'] } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.domain_id ?? mine.body.data.domain?.id).toBe(d1.id);
  });

  it('limits a user to their templates', async () => {
    const t1 = (await s.rest('POST', '/templates', { body: { html: '<p>1</p>', text: '1' } })).body.data;
    const t2 = (await s.rest('POST', '/templates', { body: { html: '<p>2</p>', text: '2' } })).body.data;
    const limited = await sessionOf({ role: 'Custom User', permissions: ['manage-template'], templates: [t1.id] });
    expect((await send(s, 'GET', `/v1/templates/${t1.id}`, { session: limited })).status).toBe(200);
    expect((await send(s, 'GET', `/v1/templates/${t2.id}`, { session: limited })).status).toBe(403);
  });

  it('never reaches another account', async () => {
    const other = await createAccount(s, 'Tenant B');
    const theirs = await seedDomain(s, { token: other.token });
    const admin = await sessionOf({ role: 'admin' });
    expect((await send(s, 'GET', `/v1/domains/${theirs.id}`, { session: admin })).status).toBe(404);
    const listed = await send(s, 'GET', '/v1/domains?limit=100', { session: admin });
    expect(listed.body.data.map((d: { id: string }) => d.id)).not.toContain(theirs.id);
    // Their own user logs into their own account only.
    const theirUser = await sessionOf({ role: 'admin' }, other.token);
    expect((await send(s, 'GET', `/v1/domains/${theirs.id}`, { session: theirUser })).status).toBe(200);
    const who = await gqlAs(s, theirUser, '{ whoami { account_id } }');
    expect(who.body.data.whoami.account_id).toBe(other.id);
  });
});

describe('users and invites seen and made by a user limited to several domains', () => {
  it('sees people who can work on one of its domains, and invites only within them', async () => {
    const [d1, d2, d3] = [await seedDomain(s), await seedDomain(s), await seedDomain(s)];
    const u = await userWith(s, { role: 'admin', domains: [d1.id, d2.id] });
    const session = await loginOk(s, u.email, u.password);
    const onD3 = await userWith(s, { role: 'designer', domains: [d3.id] });
    const onD2 = await userWith(s, { role: 'designer', domains: [d2.id, d3.id] });
    const listed = (await send(s, 'GET', '/v1/users?limit=100', { session })).body.data.map((x: { id: string }) => x.id);
    expect(listed).toContain(onD2.id);
    expect(listed).not.toContain(onD3.id);
    expect((await send(s, 'GET', `/v1/users/${onD3.id}`, { session })).status).toBe(403);
    // onD2 also works on d3, out of this user's reach: it may be read, not changed.
    expect((await send(s, 'GET', `/v1/users/${onD2.id}`, { session })).status).toBe(200);
    expect((await send(s, 'PUT', `/v1/users/${onD2.id}`, { session, body: { role: 'manager' } })).status).toBe(403);

    const outside = await send(s, 'POST', '/v1/users', { session, body: { email: `x-${Date.now()}@example.test`, role: 'designer', domains: [d3.id] } });
    expect(outside.status).toBe(403);
    const email = `y-${Date.now()}@example.test`;
    expect((await send(s, 'POST', '/v1/users', { session, body: { email, role: 'designer' } })).status).toBe(200);
    const invite = (await s.rest('GET', '/invites?limit=100')).body.data.find((i: { email: string }) => i.email === email);
    expect(invite).toBeDefined();
    const stored = await s.app.services.orm.em.fork().getConnection().execute('select domain_ids from invites where email = ?', [email]);
    expect([...stored[0].domain_ids].sort()).toEqual([d1.id, d2.id].sort());
  });
});

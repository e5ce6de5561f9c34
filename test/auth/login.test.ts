import { startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { login, loginOk, password, send, userWith } from './helpers.js';
import { inviteLink, tokenOf, uniqueEmail } from '../users/helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('login, session and logout', () => {
  it('logs a user in with the password set at invitation, with a locked-down cookie', async () => {
    const u = await userWith(s, { role: 'manager' });
    const { res, session } = await login(s, { email: u.email.toUpperCase(), password: u.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: u.id, email: u.email, name: 'Ada', role: 'manager', permissions: expect.arrayContaining(['manage-domain']) },
      csrf_token: expect.any(String),
      password_change_required: false,
    });
    const attrs = session!.setCookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs[0]).toMatch(/^pb_session=[A-Za-z0-9_-]{40,}$/i);
    expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    // Plain HTTP here (PUBLIC_URL is http://localhost): Secure would keep the browser from sending it.
    expect(attrs).not.toContain('secure');

    const me = await send(s, 'GET', '/auth/session', { session: session! });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(res.body);
    expect((await send(s, 'GET', '/v1/domains', { session: session! })).status).toBe(200);

    const out = await send(s, 'POST', '/auth/logout', { session: session! });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^pb_session=; .*Max-Age=0/);
    // A logged-out session reaches nothing: the routes, /v1 and GraphQL all answer 401.
    expect((await send(s, 'GET', '/auth/session', { session: session! })).status).toBe(401);
    expect((await send(s, 'GET', '/v1/domains', { session: session! })).status).toBe(401);
    const gql = await send(s, 'POST', '/graphql', { session: session!, body: { query: '{ domains { id } }' } });
    expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('answers a wrong password and an unknown address alike (401), and refuses after repeated failures (429)', async () => {
    const u = await userWith(s, { role: 'designer' });
    const wrong = await login(s, { email: u.email, password: 'not-the-password' });
    const unknown = await login(s, { email: uniqueEmail('nobody'), password: 'whatever-password' });
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.body).toEqual(unknown.res.body);
    expect(wrong.res.headers.get('set-cookie')).toBeNull();

    for (let i = 1; i < 10; i++) expect((await login(s, { email: u.email, password: `wrong-${i}-password` })).res.status).toBe(401);
    const blocked = await login(s, { email: u.email, password: u.password });
    expect(blocked.res.status).toBe(429);
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    const metrics = await scrapeMetrics(s);
    const count = (outcome: string) => Number(new RegExp(`^postbox_logins_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    expect(count('bad_credentials')).toBeGreaterThanOrEqual(11);
    expect(count('throttled')).toBeGreaterThanOrEqual(1);
    expect(count('ok')).toBeGreaterThanOrEqual(1);
  });

  it('refuses a login without its fields (422), and a user who never set a password', async () => {
    expect((await send(s, 'POST', '/auth/login', { body: { email: 'a@example.test' } })).status).toBe(422);
    expect((await send(s, 'POST', '/auth/login', { body: ['x'] })).status).toBe(422);
    const email = uniqueEmail('nopw');
    await s.rest('POST', '/users', { body: { email, role: 'admin' } });
    expect((await login(s, { email, password: '' })).res.status).toBe(422);
    expect((await login(s, { email, password: password() })).res.status).toBe(401);
  });

  it('changes the password with the current one; other sessions end, this one stays', async () => {
    const u = await userWith(s, { role: 'manager' });
    const a = await loginOk(s, u.email, u.password);
    const b = await loginOk(s, u.email, u.password);
    const next = password();
    const bad = await send(s, 'POST', '/auth/password', { session: a, body: { current_password: 'wrong-password', new_password: next } });
    expect(bad.status).toBe(422);
    const short = await send(s, 'POST', '/auth/password', { session: a, body: { current_password: u.password, new_password: 'short' } });
    expect(short.status).toBe(422);
    expect(short.body.errors.new_password[0]).toMatch(/at least 10/);
    expect((await send(s, 'POST', '/auth/password', { session: a, body: { current_password: u.password, new_password: next } })).status).toBe(204);
    expect((await send(s, 'GET', '/auth/session', { session: a })).status).toBe(200);
    expect((await send(s, 'GET', '/auth/session', { session: b })).status).toBe(401);
    expect((await login(s, { email: u.email, password: u.password })).res.status).toBe(401);
    await loginOk(s, u.email, next);
  });

  it('refuses a weak password on the invitation form and keeps the invite', async () => {
    const email = uniqueEmail('weak');
    await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    const link = await inviteLink(s, email);
    const res = await fetch(`${s.url}/invites/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokenOf(link), name: 'A', last_name: 'B', password: 'short' }).toString(),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('at least 10 characters');
    expect((await fetch(link)).status).toBe(200);
  });

  it('answers bad input on every /auth route with a 4xx, never a 500', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    const bodies: unknown[] = [
      {},
      [],
      'text',
      42,
      null,
      { email: {}, password: [] },
      { email: 'x'.repeat(5000), password: 'y'.repeat(5000) },
      { email: u.email, password: u.password, totp: { a: 1 }, recovery_code: ['x'] },
      { email: u.email, password: u.password, totp: '9'.repeat(1000) },
      { current_password: 1, new_password: true, code: {} },
      { code: '12345678901234567890' },
    ];
    const routes = ['/auth/login', '/auth/password', '/auth/password-reset', '/auth/totp/confirm', '/auth/totp/disable'];
    for (const path of routes) {
      for (const body of bodies) {
        const res = await send(s, 'POST', path, { session, body });
        expect([path, res.status < 500 && res.status >= 200]).toEqual([path, true]);
      }
      const raw = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf }, body: '{not json' });
      expect([path, raw.status]).toEqual([path, 400]);
    }
    for (const cookie of ['pb_session=', 'pb_session=%00%ff', `pb_session=${'a'.repeat(5000)}`, 'pb_session=a; pb_session=b']) {
      const res = await fetch(`${s.url}/v1/domains`, { headers: { cookie } });
      expect([cookie.slice(0, 30), res.status]).toEqual([cookie.slice(0, 30), 401]);
    }
    expect((await fetch(`${s.url}/auth/reset?token=${'x'.repeat(3000)}`)).status).toBe(410);
  });
});

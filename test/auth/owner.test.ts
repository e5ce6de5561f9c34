import { startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf } from '../support/factories.js';
import { ownerClaimLink } from '../../src/modules/users/owner.service.js';
import { login, password, send } from './helpers.js';

const PUBLIC_URL = 'https://console.example.test';

let s: TestServer;
beforeAll(async () => {
  // Behind a TLS proxy: PUBLIC_URL is https, the test talks plain HTTP to the process.
  s = await startTestServer({ env: { PUBLIC_URL } });
});
afterAll(async () => {
  await s?.close();
});

const claim = (token: string, fields: Record<string, string>) =>
  fetch(`${s.url}/owner/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, ...fields }).toString(),
  });

describe('the owner link sets a password; the cookie is Secure behind TLS', () => {
  it('refuses a short password, then makes the owner who logs in with a Secure cookie', async () => {
    const link = new URL(ownerClaimLink(s.app.services.config, await accountIdOf(s)));
    const token = link.searchParams.get('token')!;
    const form = await (await fetch(`${s.url}/owner/claim?token=${encodeURIComponent(token)}`)).text();
    expect(form).toContain('name="password"');
    const email = `owner-${Date.now()}@example.test`;
    const weak = await claim(token, { email, name: 'Olive', last_name: 'Owner', password: 'short' });
    expect(weak.status).toBe(422);
    expect(await weak.text()).toContain('at least 10 characters');

    const pw = password();
    const made = await claim(token, { email, name: 'Olive', last_name: 'Owner', password: pw });
    expect(made.status).toBe(200);
    const { res, session } = await login(s, { email, password: pw });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('admin');
    expect(session!.setCookie.split(';').map((a) => a.trim())).toContain('Secure');

    // Origin: PUBLIC_URL's, or the request's own host; nothing else.
    const body = { html: '<p>x</p>', text: 'x' };
    expect((await send(s, 'POST', '/v1/templates', { session: session!, headers: { origin: PUBLIC_URL }, body })).status).toBe(201);
    expect((await send(s, 'POST', '/v1/templates', { session: session!, headers: { origin: s.url }, body })).status).toBe(201);
    expect((await send(s, 'POST', '/v1/templates', { session: session!, headers: { origin: 'https://console.example.test.evil.example' }, body })).status).toBe(403);
    expect((await send(s, 'POST', '/v1/templates', { session: session!, headers: { origin: 'null' }, body })).status).toBe(403);
    // The admin holds every scope: users and tokens too.
    expect((await send(s, 'GET', '/v1/users', { session: session! })).status).toBe(200);
    expect((await send(s, 'GET', '/v1/token', { session: session! })).status).toBe(200);
  });
});

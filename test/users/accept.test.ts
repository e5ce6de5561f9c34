import { ISO, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { INVITE_KEYS, USER_KEYS, inviteLink, mailsTo, submitForm, tokenOf, uniqueEmail } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('invitation, end to end', () => {
  it('mails a link whose form creates the user and removes the invite', async () => {
    const domain = await seedDomain(s);
    const email = uniqueEmail('ada');
    const invited = await s.rest('POST', '/users', {
      body: {
        email,
        role: 'Custom User',
        permissions: ['read-activity', 'manage-template'],
        domains: [domain.id],
        requires_periodic_password_change: true,
      },
    });
    expect(invited.status).toBe(200);
    expect(Object.keys(invited.body)).toEqual(['data']);
    const invite = invited.body.data;
    expect(Object.keys(invite).sort()).toEqual(INVITE_KEYS);

    const [mail] = await mailsTo(s, email);
    expect(mail.subject).toBe('You have been invited to join Default account');
    expect(mail.html).toContain('/invites/accept?token=');
    const link = await inviteLink(s, email);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('name="name"');
    expect(html).toContain('name="last_name"');
    expect(html).toContain('Default account');

    const accepted = await submitForm(s, { token: tokenOf(link), name: 'Ada', last_name: 'Lovelace' });
    expect(accepted.status).toBe(200);
    expect(accepted.type).toContain('text/html');
    expect(accepted.text).toContain('Welcome, Ada');
    // No password chosen: the page says where the console is and how to get one.
    expect(accepted.text).toContain('<a href="/">Open the console</a> and sign in after setting a password with “Forgot your password?” on its sign-in page.');

    const list = await s.rest('GET', '/users');
    const user = list.body.data.find((u: any) => u.email === email);
    expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(user).not.toHaveProperty('two_fa');
    expect(user).toMatchObject({
      avatar: null,
      email,
      name: 'Ada',
      last_name: 'Lovelace',
      '2fa': false,
      role: 'Custom User',
      permissions: ['read-activity', 'manage-template'],
      templates: [],
    });
    expect(user.created_at).toMatch(ISO);
    expect(user.updated_at).toMatch(ISO);
    expect(user.domains).toHaveLength(1);
    expect(Object.keys(user.domains[0]).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(user.domains[0]).toMatchObject({ id: domain.id, name: domain.name });
    expect(user.domains[0].created_at).toMatch(ISO);
    expect(user.domains[0].updated_at).toMatch(ISO);

    // The invite is consumed: gone from /v1, and the link no longer works.
    expect((await s.rest('GET', `/invites/${invite.id}`)).status).toBe(404);
    const again = await submitForm(s, { token: tokenOf(link), name: 'Ada', last_name: 'Lovelace' });
    expect(again.status).toBe(410);
    expect(again.type).toContain('text/html');
    expect((await fetch(link)).status).toBe(410);
  });

  it('accepts a JSON body too', async () => {
    const email = uniqueEmail('json');
    await s.rest('POST', '/users', { body: { email, role: 'designer' } });
    const token = tokenOf(await inviteLink(s, email));
    const res = await fetch(`${s.url}/invites/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, name: 'Grace', last_name: 'Hopper' }),
    });
    expect(res.status).toBe(200);
    const user = (await s.rest('GET', '/users')).body.data.find((u: any) => u.email === email);
    expect(user).toMatchObject({ name: 'Grace', last_name: 'Hopper', role: 'designer' });
    expect(user.permissions).toEqual(['read-own-templates', 'read-all-templates', 'manage-template', 'read-filemanager']);
  });

  it('refuses a tampered token with 400', async () => {
    const email = uniqueEmail('tamper');
    await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    const token = tokenOf(await inviteLink(s, email));
    const [payload, sig] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ id: 'someoneelse0000' })).toString('base64url')}.${sig}`;
    for (const bad of [`${payload}.${sig.slice(0, -2)}xx`, forged, 'garbage', '']) {
      const get = await fetch(`${s.url}/invites/accept?token=${encodeURIComponent(bad)}`);
      expect([bad, get.status]).toEqual([bad, 400]);
      const post = await submitForm(s, { token: bad, name: 'Eve', last_name: 'Mallory' });
      expect([bad, post.status]).toEqual([bad, 400]);
    }
    // The real token still works afterwards.
    expect((await submitForm(s, { token, name: 'Real', last_name: 'Person' })).status).toBe(200);
  });

  it('re-shows the form with 422 when a name is missing or too long', async () => {
    const email = uniqueEmail('form');
    await s.rest('POST', '/users', { body: { email, role: 'accountant' } });
    const token = tokenOf(await inviteLink(s, email));
    const missing = await submitForm(s, { token, name: '', last_name: 'X' });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('The name field is required.');
    const long = await submitForm(s, { token, name: 'N', last_name: 'x'.repeat(192) });
    expect(long.status).toBe(422);
    expect(long.text).toContain('The last name may not be greater than 191 characters.');
    expect((await s.rest('GET', '/users')).body.data.some((u: any) => u.email === email)).toBe(false);
    expect((await submitForm(s, { token, name: 'Fine', last_name: 'Now' })).status).toBe(200);
  });

  it('escapes what it echoes back into the page', async () => {
    const email = uniqueEmail('xss');
    await s.rest('POST', '/users', { body: { email, role: 'accountant' } });
    const token = tokenOf(await inviteLink(s, email));
    const res = await submitForm(s, { token, name: '', last_name: '"><script>alert(1)</script>' });
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('&lt;script&gt;');
  });

  it('a deleted invite answers 410 on its link', async () => {
    const email = uniqueEmail('gone');
    const invited = await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    const link = await inviteLink(s, email);
    expect((await s.rest('DELETE', `/invites/${invited.body.data.id}`)).status).toBe(204);
    expect((await fetch(link)).status).toBe(410);
    expect((await submitForm(s, { token: tokenOf(link), name: 'A', last_name: 'B' })).status).toBe(410);
  });

  it('creates one user when the form is submitted twice at once', async () => {
    const email = uniqueEmail('double');
    await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    const token = tokenOf(await inviteLink(s, email));
    const results = await Promise.all([1, 2].map(() => submitForm(s, { token, name: 'Twin', last_name: 'Click' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const users = (await s.rest('GET', '/users?limit=100')).body.data.filter((u: any) => u.email === email);
    expect(users).toHaveLength(1);
  });

  it('the form parser is only for the accept route', async () => {
    const res = await fetch(`${s.url}/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer x' },
      body: 'email=a%40b.test&role=admin',
    });
    expect(res.status).toBe(415);
  });
});

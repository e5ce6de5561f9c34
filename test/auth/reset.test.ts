import { OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { mailsTo } from '../support/mail.js';
import { login, loginOk, password, send, userWith } from './helpers.js';
import { uniqueEmail } from '../users/helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { PASSWORD_MAX_AGE_DAYS: '1' } });
});
afterAll(async () => {
  await s?.close();
});

async function resetLink(email: string): Promise<string> {
  // The invitation came first; the reset mail is the newest.
  const [mail] = await mailsTo(s, email, 2);
  const m = /https?:\/\/\S+\/auth\/reset\?token=[^\s"<]+/.exec(mail.text);
  if (!m) throw new Error(`no link in: ${mail.text}`);
  const u = new URL(m[0]);
  return `${s.url}${u.pathname}${u.search}`;
}

const submit = (token: string, pw: string) =>
  fetch(`${s.url}/auth/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, password: pw }).toString(),
  });

describe('password reset by mail', () => {
  it('mails a single-use link whose form sets a new password and ends the sessions', async () => {
    const u = await userWith(s, { role: 'manager' });
    const before = await loginOk(s, u.email, u.password);
    const asked = await send(s, 'POST', '/auth/password-reset', { body: { email: u.email } });
    expect(asked.status).toBe(202);
    const link = await resetLink(u.email);
    const [mail] = await mailsTo(s, u.email, 2);
    expect(mail.subject).toMatch(/Reset your .* password/);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('type="password"');
    const token = new URL(link).searchParams.get('token')!;
    expect((await submit(token, 'short')).status).toBe(422);
    const next = password();
    const done = await submit(token, next);
    expect(done.status).toBe(200);

    expect((await send(s, 'GET', '/auth/session', { session: before })).status).toBe(401);
    expect((await login(s, { email: u.email, password: u.password })).res.status).toBe(401);
    await loginOk(s, u.email, next);
    // Single use.
    expect((await submit(token, password())).status).toBe(410);
    expect((await fetch(link)).status).toBe(410);
  });

  it('asks for the address on /auth/reset without a token (the console links there), and mails the link', async () => {
    const u = await userWith(s, { role: 'designer' });
    const page = await fetch(`${s.url}/auth/reset`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="email"');
    const asked = await fetch(`${s.url}/auth/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: u.email }).toString(),
    });
    expect(asked.status).toBe(202);
    const token = new URL(await resetLink(u.email)).searchParams.get('token')!;
    const next = password();
    expect((await submit(token, next)).status).toBe(200);
    await loginOk(s, u.email, next);
  });

  it('mails an address at most 5 reset links an hour', async () => {
    const u = await userWith(s, { role: 'designer' });
    for (let i = 0; i < 7; i++) expect((await send(s, 'POST', '/auth/password-reset', { body: { email: u.email } })).status).toBe(202);
    // The invitation and five reset mails; none after.
    await mailsTo(s, u.email, 6);
    await new Promise((r) => setTimeout(r, 1000));
    const kept = await s.gql('query($to: String) { operator_captured_mail(to: $to) { subject } }', { to: u.email }, OPERATOR_TOKEN);
    expect(kept.body.data.operator_captured_mail).toHaveLength(6);
  });

  it('answers 202 for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('ghost');
    expect((await send(s, 'POST', '/auth/password-reset', { body: { email } })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    const kept = await s.gql('query($to: String) { operator_captured_mail(to: $to) { subject } }', { to: email }, OPERATOR_TOKEN);
    expect(kept.body.data.operator_captured_mail).toEqual([]);
    expect((await send(s, 'POST', '/auth/password-reset', { body: {} })).status).toBe(422);
    expect((await submit('made-up-token', password())).status).toBe(410);
  });
});

describe('requires_periodic_password_change', () => {
  it('once the password is older than PASSWORD_MAX_AGE_DAYS, only /auth/* answers until it changes', async () => {
    const u = await userWith(s, { role: 'manager', requires_periodic_password_change: true });
    const fresh = await loginOk(s, u.email, u.password);
    expect(fresh.body.password_change_required).toBe(false);
    await s.app.services.orm.em
      .fork()
      .getConnection()
      .execute(`update account_users set password_changed_at = now() - interval '2 days' where id = ?`, [u.id]);

    const session = await loginOk(s, u.email, u.password);
    expect(session.body.password_change_required).toBe(true);
    const refused = await send(s, 'GET', '/v1/domains', { session });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/password/);
    const gql = await send(s, 'POST', '/graphql', { session, body: { query: '{ domains { data { id } } }' } });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await send(s, 'GET', '/auth/session', { session })).body.password_change_required).toBe(true);

    const next = password();
    expect((await send(s, 'POST', '/auth/password', { session, body: { current_password: u.password, new_password: next } })).status).toBe(204);
    expect((await send(s, 'GET', '/v1/domains', { session })).status).toBe(200);
    expect((await send(s, 'GET', '/auth/session', { session })).body.password_change_required).toBe(false);
  });

  it('leaves users without the flag alone, whatever the age', async () => {
    const u = await userWith(s, { role: 'manager' });
    await s.app.services.orm.em
      .fork()
      .getConnection()
      .execute(`update account_users set password_changed_at = now() - interval '200 days' where id = ?`, [u.id]);
    const session = await loginOk(s, u.email, u.password);
    expect(session.body.password_change_required).toBe(false);
    expect((await send(s, 'GET', '/v1/domains', { session })).status).toBe(200);
  });
});

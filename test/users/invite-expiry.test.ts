import { startTestServer, type TestServer } from '../support/server.js';
import { signToken } from '../../src/lib/secrets.js';
import { inviteLink, submitForm, tokenOf, uniqueEmail } from './helpers.js';

/** An invitation link works for INVITE_TTL_HOURS after it was mailed (here 0.003 h, about 11 s). */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { INVITE_TTL_HOURS: '0.003' } });
});
afterAll(async () => {
  await s?.close();
});

/** Waits (bounded) until the link's page says it expired; answers that page. */
async function expiredPage(link: string): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const res = await fetch(link);
    const text = await res.text();
    if (res.status !== 200) return { status: res.status, text };
    if (Date.now() > deadline) throw new Error('the invitation link never expired');
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('invitation links expire', () => {
  it('shows an expired link as expired, accepts it as a bad token, and a resend mails a fresh one', async () => {
    const email = uniqueEmail('late');
    const invited = await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    expect(invited.status).toBe(200);
    const link = await inviteLink(s, email);
    expect((await fetch(link)).status).toBe(200);

    const page = await expiredPage(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('expired');
    const late = await submitForm(s, { token: tokenOf(link), name: 'Ada', last_name: 'Lovelace', password: 'a long enough password' });
    const madeUp = await submitForm(s, { token: 'made.up', name: 'Ada', last_name: 'Lovelace', password: 'a long enough password' });
    expect(late.status).toBe(400);
    expect(late.text).toBe(madeUp.text);
    // Refused before any change: the invite is still there and nobody joined.
    expect((await s.rest('GET', `/invites/${invited.body.data.id}`)).status).toBe(200);
    const users = await s.rest('GET', '/users?limit=100');
    expect(users.body.data.map((u: { email: string }) => u.email)).not.toContain(email);

    expect((await s.rest('POST', `/invites/${invited.body.data.id}/resend`)).status).toBe(200);
    const fresh = await inviteLink(s, email, 2);
    expect(fresh).not.toBe(link);
    const accepted = await submitForm(s, { token: tokenOf(fresh), name: 'Ada', last_name: 'Lovelace' });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('Welcome, Ada');
  }, 90_000);

  it('expires a link mailed before links carried an expiry, INVITE_TTL_HOURS after its invite was made', async () => {
    const email = uniqueEmail('old');
    const invited = await s.rest('POST', '/users', { body: { email, role: 'manager' } });
    const legacy = signToken(s.app.services.config.APP_SECRET, 'invite', { id: invited.body.data.id });
    const link = `${s.url}/invites/accept?token=${encodeURIComponent(legacy)}`;
    expect((await fetch(link)).status).toBe(200);
    const page = await expiredPage(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('expired');
    expect((await submitForm(s, { token: legacy, name: 'Ada', last_name: 'Lovelace' })).status).toBe(400);
  }, 90_000);
});

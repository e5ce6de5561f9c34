import { startTestServer, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';
import { loginOk, password, send, userWith } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  // Small session limits: the tests below age a session past them by moving its clock back.
  s = await startTestServer({ env: { SESSION_IDLE_MINUTES: '1', SESSION_MAX_HOURS: '1' } });
});
afterAll(async () => {
  await s?.close();
});

const tokenNamed = (name: string) => (e: any) => e.data?.token_events?.token?.name === name;

describe('live streams of a session', () => {
  it('stay open while the session lives, and end once it is logged out', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    const stream = await subscribe(s, 'subscription { token_events { action token { name } } }', session);
    expect(stream.response.status).toBe(200);
    // Live: a token made by someone else is heard (probe until the subscription is listening).
    let live = false;
    for (let i = 0; i < 20 && !live; i++) {
      await s.rest('POST', '/token', { body: { name: `probe-${i}`, scopes: ['email_full'] } });
      live = await stream.heard(tokenNamed(`probe-${i}`), 500);
    }
    expect(live).toBe(true);
    // Past the guard's 5 s sweep, which checks the session rather than an API token.
    await new Promise((r) => setTimeout(r, 6000));
    await s.rest('POST', '/token', { body: { name: 'after-sweep', scopes: ['email_full'] } });
    expect(await stream.heard(tokenNamed('after-sweep'))).toBe(true);

    expect((await send(s, 'POST', '/auth/logout', { session })).status).toBe(204);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([stream.ended, new Promise((r) => (timer = setTimeout(() => r('still open'), 8000)))]);
    clearTimeout(timer);
    stream.close();
    expect(outcome).toBe('ended');
  }, 40_000);

  /** A session with a live stream that has heard an event (so it surely listens). */
  async function liveStream() {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    const stream = await subscribe(s, 'subscription { token_events { action token { name } } }', session);
    expect(stream.response.status).toBe(200);
    const tag = Math.random().toString(36).slice(2, 8);
    await stream.live((i) => s.rest('POST', '/token', { body: { name: `live-${tag}-${i}`, scopes: ['email_full'] } }), (e) =>
      String(e.data?.token_events?.token?.name ?? '').startsWith(`live-${tag}-`),
    );
    return { u, session, stream };
  }

  /** 'ended' once the server closed the stream, 'still open' after `ms` (past two of the guard's sweeps). */
  async function endsWithin(stream: Awaited<ReturnType<typeof subscribe>>, ms = 15_000) {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([stream.ended, new Promise((r) => (timer = setTimeout(() => r('still open'), ms)))]);
    clearTimeout(timer);
    stream.close();
    return outcome;
  }

  const backdate = (column: 'last_seen_at' | 'created_at', interval: string, userId: string) =>
    s.app.services.orm.em.fork().getConnection().execute(`update user_sessions set ${column} = now() - interval '${interval}' where user_id = ?`, [userId]);

  it('end once the session has been idle past SESSION_IDLE_MINUTES', async () => {
    const { u, session, stream } = await liveStream();
    // Idle for longer than the limit (the test server's 1 minute), with no request since.
    await backdate('last_seen_at', '2 minutes', u.id);
    expect(await endsWithin(stream)).toBe('ended');
    expect((await send(s, 'GET', '/auth/session', { session })).status).toBe(401);
  }, 60_000);

  it('end once the session is older than SESSION_MAX_HOURS, however active', async () => {
    const { u, stream } = await liveStream();
    await backdate('created_at', '2 hours', u.id);
    expect(await endsWithin(stream)).toBe('ended');
  }, 60_000);

  it('end when the user is removed', async () => {
    const { u, stream } = await liveStream();
    expect((await s.rest('DELETE', `/users/${u.id}`)).status).toBe(204);
    expect(await endsWithin(stream)).toBe('ended');
  }, 60_000);

  it("end when a password change in another of the user's sessions ends theirs", async () => {
    const { u, session, stream } = await liveStream();
    const other = await loginOk(s, u.email, u.password);
    expect((await send(s, 'POST', '/auth/password', { session: other, body: { current_password: u.password, new_password: password() } })).status).toBe(204);
    expect(await endsWithin(stream)).toBe('ended');
    expect((await send(s, 'GET', '/auth/session', { session })).status).toBe(401);
  }, 60_000);
});

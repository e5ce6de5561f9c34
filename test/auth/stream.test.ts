import { startTestServer, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';
import { loginOk, send, userWith } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
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
});

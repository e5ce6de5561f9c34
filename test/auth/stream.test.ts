import { startTestServer, type TestServer } from '../support/server.js';
import { loginOk, send, userWith, type Session } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** A subscription over SSE authenticated by a session cookie; `ended` settles when the server closes it. */
async function subscribeAs(session: Session, query: string) {
  const ac = new AbortController();
  const res = await fetch(`${s.url}/graphql/stream`, {
    method: 'POST',
    signal: ac.signal,
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  const events: any[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'ended';
        buffer += decoder.decode(value);
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, i).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('');
          buffer = buffer.slice(i + 2);
          if (data) events.push(JSON.parse(data));
        }
      }
    } catch {
      return 'ended';
    }
  })();
  const heard = async (pred: (e: any) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (events.some(pred)) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  return { res, events, ended, heard, close: () => ac.abort() };
}

const tokenNamed = (name: string) => (e: any) => e.data?.token_events?.token?.name === name;

describe('live streams of a session', () => {
  it('stay open while the session lives, and end once it is logged out', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    const stream = await subscribeAs(session, 'subscription { token_events { action token { name } } }');
    expect(stream.res.status).toBe(200);
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

import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { sql } from './helpers.js';

/**
 * Accepting a send keeps the account's plan and domains for a few seconds (SEND_CACHE_SECONDS,
 * 5 s by default); a change made anywhere, here by SQL outside the service, reaches it by NOTIFY.
 * Tenant rules hold: a domain paused or deleted, or a plan lowered, counts within a second.
 */
describe('what acceptance keeps of the sender', () => {
  let s: TestServer;
  let account: { id: string; token: string };

  beforeAll(async () => {
    s = await startTestServer();
    account = await createAccount(s, 'Cached sender');
    await sql(s, `update accounts set plan = 'enterprise' where id = ?`, [account.id]);
  }, 60_000);
  afterAll(() => s?.close());

  const send = (domain: { name: string }, extra: Record<string, unknown> = {}) =>
    s.rest('POST', '/email', {
      token: account.token,
      body: { from: { email: `c@${domain.name}` }, to: [{ email: `r${Date.now()}@example.net` }], subject: 'S', text: 'T', ...extra },
    });

  /** Sends until `done` holds, for at most a second; the answers it took. */
  async function withinASecond<R extends { status: number; body: any }>(probe: () => Promise<R>, done: (r: R) => boolean): Promise<R> {
    const deadline = Date.now() + 1000;
    for (;;) {
      const r = await probe();
      if (done(r)) return r;
      if (Date.now() > deadline) throw new Error(`not within a second: ${r.status} ${JSON.stringify(r.body)}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  it('holds messages of a domain paused by hand within a second, and sends again once resumed', async () => {
    const domain = await seedDomain(s, { accountId: account.id });
    const first = await send(domain);
    expect(first.status).toBe(202);
    expect(first.headers.get('x-send-paused')).toBeNull();
    await sql(s, `update domains set settings = jsonb_set(settings, '{send_paused}', 'true') where id = ?`, [domain.id]);
    await withinASecond(() => send(domain), (r) => r.status === 202 && r.headers.get('x-send-paused') === 'true');
    await sql(s, `update domains set settings = jsonb_set(settings, '{send_paused}', 'false') where id = ?`, [domain.id]);
    await withinASecond(() => send(domain), (r) => r.status === 202 && r.headers.get('x-send-paused') === null);
  });

  it('refuses a domain deleted or unverified by hand within a second', async () => {
    const gone = await seedDomain(s, { accountId: account.id });
    const unverified = await seedDomain(s, { accountId: account.id });
    expect((await send(gone)).status).toBe(202);
    expect((await send(unverified)).status).toBe(202);
    await sql(s, 'delete from domains where id = ?', [gone.id]);
    await sql(s, 'update domains set is_verified = false where id = ?', [unverified.id]);
    const refused = await withinASecond(() => send(gone), (r) => r.status === 422);
    expect(Object.keys(refused.body.errors)).toEqual(['from.email']);
    expect((await withinASecond(() => send(unverified), (r) => r.status === 422)).status).toBe(422);
  });

  it('applies a plan lowered by hand within a second', async () => {
    const domain = await seedDomain(s, { accountId: account.id });
    const headers = { headers: [{ name: 'X-Campaign', value: 'one' }] };
    expect((await send(domain, headers)).status).toBe(202);
    await sql(s, `update accounts set plan = 'free' where id = ?`, [account.id]);
    const refused = await withinASecond(() => send(domain, headers), (r) => r.status === 422);
    expect(Object.keys(refused.body.errors)).toEqual(['headers']);
  });
});

import pg from 'pg';
import { startApp, type RunningApp } from '../../src/app.js';
import { seedDomain } from '../support/factories.js';
import { OPERATOR_TOKEN, createAccount, sameInstallEnv, startTestServer, tokenWith, type TestServer } from '../support/server.js';

/**
 * Processes keep authenticated tokens for a few seconds (TOKEN_CACHE_SECONDS) instead of reading
 * them on every request. Tenant isolation must not notice: a token paused, deleted or changed is
 * refused at once by the process that changed it, and within a second by every other process on
 * the database, whatever made the change (the API, a domain's deletion, SQL by hand).
 */
let s: TestServer;
let twin: RunningApp;
let db: pg.Client;
beforeAll(async () => {
  // A long age: only the invalidation can explain a refusal within the second.
  s = await startTestServer({ env: { TOKEN_CACHE_SECONDS: '300' } });
  // A second api process on the same database, with its own cache; plan limits apply there.
  twin = await startApp({
    roles: ['api'],
    env: sameInstallEnv(s, { TOKEN_CACHE_SECONDS: '300' }),
  });
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await twin?.close();
  await s?.close();
});

const viaTwin = (token: string, path = '/token') => fetch(`${twin.url}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
const idOf = async (token: string) => (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id as string;

/** Milliseconds until the twin refuses `token` (401), polling; -1 if it still serves it after `ms`. */
async function twinRefusesWithin(token: string, ms = 1000): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if ((await viaTwin(token)).status === 401) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 10));
  }
  return -1;
}

/** A token both processes have just served (so both have it cached). */
async function servedByBoth(scopes = ['tokens_full'], domainId?: string): Promise<{ token: string; id: string }> {
  const token = await tokenWith(s, scopes, domainId);
  expect((await s.rest('GET', '/token', { token })).status).toBe(200);
  expect((await viaTwin(token)).status).toBe(200);
  expect(s.app.services.tokenCache.size).toBeGreaterThan(0);
  expect(twin.services.tokenCache.size).toBeGreaterThan(0);
  return { token, id: await idOf(token) };
}

describe('a cached token', () => {
  it('paused through the API: the very next request is refused here, and within a second by the other process', async () => {
    const { token, id } = await servedByBoth();
    expect((await s.rest('PUT', `/token/${id}/settings`, { body: { status: 'pause' } })).status).toBe(200);
    expect((await s.rest('GET', '/token', { token })).status).toBe(401);
    expect(await twinRefusesWithin(token)).toBeGreaterThanOrEqual(0);
    // Unpaused, it works again at once: a refused token is never kept.
    expect((await s.rest('PUT', `/token/${id}/settings`, { body: { status: 'unpause' } })).status).toBe(200);
    expect((await s.rest('GET', '/token', { token })).status).toBe(200);
    expect((await viaTwin(token)).status).toBe(200);
  });

  it('deleted through the API: refused at once here, within a second there', async () => {
    const { token, id } = await servedByBoth();
    expect((await s.rest('DELETE', `/token/${id}`)).status).toBe(204);
    expect((await s.rest('GET', '/token', { token })).status).toBe(401);
    expect(await twinRefusesWithin(token)).toBeGreaterThanOrEqual(0);
  });

  it('paused or deleted through the other process: refused within a second here', async () => {
    const { token, id } = await servedByBoth();
    const paused = await fetch(`${twin.url}/v1/token/${id}/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'pause' }),
    });
    expect(paused.status).toBe(200);
    expect((await viaTwin(token)).status).toBe(401);
    const t0 = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - t0 < 1000) status = (await s.rest('GET', '/token', { token })).status;
    expect(status).toBe(401);
  });

  it('deleted with its domain (a cascade, no token API involved): refused within a second by both', async () => {
    const domain = await seedDomain(s);
    const { token } = await servedByBoth(['tokens_full'], domain.id);
    expect((await s.rest('DELETE', `/domains/${domain.id}`)).status).toBe(204);
    expect(await twinRefusesWithin(token)).toBeGreaterThanOrEqual(0);
    expect((await s.rest('GET', '/token', { token })).status).toBe(401);
  });

  it('paused or given other scopes by SQL behind the API: both processes follow within a second', async () => {
    const { token, id } = await servedByBoth(['tokens_full', 'email_full']);
    await db.query(`update api_tokens set scopes = '{email_full}' where id = $1`, [id]);
    const t0 = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - t0 < 1000) status = (await viaTwin(token)).status;
    expect(status).toBe(403);
    expect((await s.rest('GET', '/token', { token })).status).toBe(403);
    await db.query(`update api_tokens set status = 'pause' where id = $1`, [id]);
    expect(await twinRefusesWithin(token)).toBeGreaterThanOrEqual(0);
  });

  it("follows its account's plan within a second (operator_set_plan sets the rate limit)", async () => {
    const a = await createAccount(s, 'Plan change');
    const limitOf = async () => (await viaTwin(a.token)).headers.get('x-ratelimit-limit');
    const before = await limitOf();
    expect(['120', '1200']).toContain(before);
    const [plan, after] = before === '120' ? ['enterprise', '1200'] : ['free', '120'];
    const set = await s.gql(`mutation { operator_set_plan(account_id: "${a.id}", plan: "${plan}") { plan } }`, {}, OPERATOR_TOKEN);
    expect(set.body.data.operator_set_plan.plan).toBe(plan);
    const t0 = Date.now();
    let limit = await limitOf();
    while (limit !== after && Date.now() - t0 < 1000) limit = await limitOf();
    expect(limit).toBe(after);
  });
});

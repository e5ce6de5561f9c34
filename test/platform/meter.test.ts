import pg from 'pg';
import { startApp } from '../../src/app.js';
import { OPERATOR_TOKEN, createAccount, startTestServer, type TestServer } from '../support/server.js';

/**
 * Requests in parallel are counted in memory and written in batches (modules/quota/meter.ts);
 * within one process the counts stay exact: the limit serves exactly its number, each answer's
 * headers count one more, and the rows end up with every request once written.
 */
const LIMIT = 20;
const ENV = { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '3600', API_QUOTA_PER_DAY: '1000', ACCOUNT_RATE_LIMIT_REQUESTS: '1000', METER_FLUSH_MS: '100' };

let s: TestServer;
let db: pg.Client;
beforeAll(async () => {
  s = await startTestServer({ env: ENV });
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await s?.close();
});

const tokenIdOf = async (token: string) => (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id as string;
const counts = async (tokenId: string, accountId: string) => ({
  rate: (await db.query('select hits from api_rate_counters where token_id = $1', [tokenId])).rows[0]?.hits,
  quota: (await db.query('select hits from api_quota_counters where account_id = $1', [accountId])).rows[0]?.hits,
});
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const t0 = Date.now();
  let v = await read();
  while (!ok(v) && Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 25));
    v = await read();
  }
  return v;
}

it('serves exactly the limit of requests made in parallel, with exact headers, and writes them all', async () => {
  const a = await createAccount(s, 'Parallel');
  const id = await tokenIdOf(a.token); // 1 request
  const answers = await Promise.all(Array.from({ length: 40 }, () => s.rest('GET', '/token', { token: a.token })));
  const served = answers.filter((r) => r.status === 200);
  const refused = answers.filter((r) => r.status === 429);
  expect([served.length, refused.length]).toEqual([LIMIT - 1, 40 - (LIMIT - 1)]);
  // Each served answer saw one more request than the one before it: no two the same, none skipped.
  const remaining = served.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
  expect(remaining).toEqual(Array.from({ length: LIMIT - 1 }, (_, i) => i));
  const quotas = served.map((r) => Number(r.headers.get('x-apiquota-remaining'))).sort((x, y) => x - y);
  expect(quotas).toEqual(Array.from({ length: LIMIT - 1 }, (_, i) => 1000 - LIMIT + i));
  for (const r of refused) {
    expect(r.body).toEqual({ message: 'Too Many Attempts.' });
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
  }
  // Refused requests count in the token's window (as one at a time do), not in the day.
  const written = await until(() => counts(id, a.id), (c) => c.rate === 41 && c.quota === LIMIT);
  expect(written).toEqual({ rate: 41, quota: LIMIT });
});

it('writes what a process counted in memory when it closes', async () => {
  const a = await createAccount(s, 'Closing');
  const id = await tokenIdOf(a.token);
  const c = s.app.services.config;
  // A flush interval longer than the test: only the close writes the counts.
  const other = await startApp({
    roles: ['api'],
    env: {
      NODE_ENV: 'test', DATABASE_URL: s.dbUrl, DATA_DIR: s.dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent',
      APP_SECRET: c.APP_SECRET, OPERATOR_TOKEN, ...ENV, METER_FLUSH_MS: '5000',
    },
  });
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => fetch(`${other.url}/v1/token`, { headers: { authorization: `Bearer ${a.token}` } }).then((r) => r.status)),
  );
  expect(answers).toEqual(Array(10).fill(200));
  // Requests in parallel were counted in memory: not all of them are written yet.
  expect((await counts(id, a.id)).rate).toBeLessThan(11);
  await other.close();
  expect(await counts(id, a.id)).toEqual({ rate: 11, quota: 11 });
});

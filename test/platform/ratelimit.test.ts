import pg from 'pg';
import { startApp, type RunningApp } from '../../src/app.js';
import { subscribe } from '../support/sse.js';
import { ISO, OPERATOR_TOKEN, createAccount, sameInstallEnv, startTestServer, type HttpAnswer, type TestServer } from '../support/server.js';

/**
 * Per-token rate limit and per-account daily quota, on /v1, GraphQL and the SSE stream. Each test
 * works in its own account, so the shared quota of one never reaches another. The window is an
 * hour long, so no test runs across a window's end by chance; ends are made by moving rows.
 */
const LIMIT = 5;
const QUOTA = 8;
const ENV = { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '3600', API_QUOTA_PER_DAY: String(QUOTA) };

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

const midnights = () => {
  const now = new Date();
  return [0, 1].map((d) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1 + d)).toISOString().replace('.000Z', '.000000Z'));
};
const h = (res: HttpAnswer, name: string) => res.headers.get(name);
const tokenIdOf = async (token: string) => (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id as string;
const GQL_TOKENS = '{ tokens { id } }';

/** A fresh account with two tokens; making the second uses one request of the first. */
async function account(name: string) {
  const a = await createAccount(s, name);
  const made = await s.rest('POST', '/token', { token: a.token, body: { name: 'second', scopes: ['tokens_full'] } });
  expect(made.status).toBe(200);
  return { ...a, second: made.body.data.accessToken as string, secondId: made.body.data.id as string };
}

describe('headers on every authenticated answer', () => {
  it('carry the rate and quota figures, exactly', async () => {
    const a = await createAccount(s, 'Headers');
    const before = midnights();
    const t0 = Math.floor(Date.now() / 1000);
    const res = await s.rest('GET', '/token', { token: a.token });
    expect(res.status).toBe(200);
    expect(h(res, 'x-ratelimit-limit')).toBe(String(LIMIT));
    expect(h(res, 'x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    const reset = Number(h(res, 'x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(t0 + 3600 - 2);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600 + 2);
    expect(h(res, 'x-apiquota-remaining')).toBe(String(QUOTA - 1));
    expect(h(res, 'x-apiquota-reset')).toMatch(ISO);
    expect([...before, ...midnights()]).toContain(h(res, 'x-apiquota-reset'));
    expect(h(res, 'retry-after')).toBeNull();

    // Errors are answers too: a 404 counts and says so.
    const missing = await s.rest('GET', '/token/nope', { token: a.token });
    expect(missing.status).toBe(404);
    expect(h(missing, 'x-ratelimit-remaining')).toBe(String(LIMIT - 2));
    expect(h(missing, 'x-apiquota-remaining')).toBe(String(QUOTA - 2));

    const gql = await s.gql(GQL_TOKENS, {}, a.token);
    expect(gql.status).toBe(200);
    expect(h(gql, 'x-ratelimit-remaining')).toBe(String(LIMIT - 3));
    expect(h(gql, 'x-apiquota-remaining')).toBe(String(QUOTA - 3));

    // A document GraphQL refuses before running it is still a request of this token.
    const bad = await s.gql('{ no_such_field }', {}, a.token);
    expect(bad.status).toBe(400);
    expect(h(bad, 'x-ratelimit-remaining')).toBe(String(LIMIT - 4));
  });

  it('are absent where nobody is metered: no token, a bad token, the operator', async () => {
    for (const token of [null, 'mlsn.not-a-token']) {
      const res = await s.rest('GET', '/token', { token });
      expect(res.status).toBe(401);
      expect(h(res, 'x-ratelimit-limit')).toBeNull();
    }
    // The operator is not limited: more requests than any token may make, all answered.
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await s.gql('{ operator_accounts { id } }', {}, OPERATOR_TOKEN);
      expect(res.status).toBe(200);
      expect(h(res, 'x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('the rate limit', () => {
  it('answers 429 with retry-after on /v1 and GraphQL once the window is used up', async () => {
    const a = await createAccount(s, 'Rate');
    for (let i = 0; i < LIMIT; i++) expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(200);

    const rest = await s.rest('GET', '/token', { token: a.token });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ message: 'Too Many Attempts.' });
    const retry = Number(h(rest, 'retry-after'));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(h(rest, 'x-ratelimit-limit')).toBe(String(LIMIT));
    expect(h(rest, 'x-ratelimit-remaining')).toBe('0');
    expect(Number(h(rest, 'x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    // A refused request is not served, so it does not use up the day's quota.
    expect(h(rest, 'x-apiquota-remaining')).toBe(String(QUOTA - LIMIT));

    const gql = await s.gql(GQL_TOKENS, {}, a.token);
    expect(gql.status).toBe(429);
    expect(gql.body.data).toBeUndefined();
    expect(gql.body.errors).toEqual([
      expect.objectContaining({ message: 'Too Many Attempts.', extensions: expect.objectContaining({ code: 'TOO_MANY_REQUESTS' }) }),
    ]);
    expect(Number(h(gql, 'retry-after'))).toBeGreaterThan(3500);
    expect(h(gql, 'x-ratelimit-remaining')).toBe('0');
    expect(h(gql, 'x-apiquota-remaining')).toBe(String(QUOTA - LIMIT));
  });

  it('starts again when the window ends, in the same row', async () => {
    const a = await createAccount(s, 'Window');
    const id = await tokenIdOf(a.token);
    for (let i = 0; i < LIMIT - 1; i++) await s.rest('GET', '/token', { token: a.token });
    expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(429);

    await db.query(`update api_rate_counters set window_end = now() - interval '1 second' where token_id = $1`, [id]);
    const res = await s.rest('GET', '/token', { token: a.token });
    expect(res.status).toBe(200);
    expect(h(res, 'x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(Number(h(res, 'x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    const rows = await db.query('select hits from api_rate_counters where token_id = $1', [id]);
    expect(rows.rows).toEqual([{ hits: 1 }]);
  });

  it('counts per token: two tokens of one account have separate windows but share the quota; other accounts are untouched', async () => {
    const a = await account('Two tokens');
    const other = await createAccount(s, 'Bystander');
    for (let i = 0; i < LIMIT - 1; i++) expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(200);
    expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(429);

    const second = await s.rest('GET', '/token', { token: a.second });
    expect(second.status).toBe(200);
    expect(h(second, 'x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    // Five served for the first token (the creation included), one for the second.
    expect(h(second, 'x-apiquota-remaining')).toBe(String(QUOTA - LIMIT - 1));

    const bystander = await s.rest('GET', '/token', { token: other.token });
    expect(h(bystander, 'x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(h(bystander, 'x-apiquota-remaining')).toBe(String(QUOTA - 1));
  });

  it('meters a subscription when it connects', async () => {
    const a = await createAccount(s, 'Stream');
    const stream = await subscribe(s, 'subscription { token_events { action } }', a.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(stream.response.headers.get('x-apiquota-remaining')).toBe(String(QUOTA - 1));
    stream.close();

    for (let i = 0; i < LIMIT - 1; i++) await s.rest('GET', '/token', { token: a.token });
    const refused = await fetch(`${s.url}/graphql/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { token_events { action } }' }),
    });
    const text = await refused.text();
    expect(refused.status).toBe(429);
    expect(text).toContain('Too Many Attempts.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('holds across two server instances on one database', async () => {
    const a = await createAccount(s, 'Two instances');
    const twin: RunningApp = await startApp({ roles: ['api'], env: sameInstallEnv(s, ENV) });
    try {
      const viaTwin = (path: string) => fetch(`${twin.url}/v1${path}`, { headers: { authorization: `Bearer ${a.token}` } });
      for (let i = 0; i < LIMIT; i++) {
        const status = i % 2 ? (await viaTwin('/token')).status : (await s.rest('GET', '/token', { token: a.token })).status;
        expect(status).toBe(200);
      }
      expect((await viaTwin('/token')).status).toBe(429);
      expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(429);
    } finally {
      await twin.close();
    }
  });
});


describe('the daily quota', () => {
  it('answers 429 naming the quota once the account has used it, whichever token asks', async () => {
    const a = await account('Quota');
    for (let i = 0; i < LIMIT - 1; i++) expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(200);
    for (let i = 0; i < QUOTA - LIMIT; i++) expect((await s.rest('GET', '/token', { token: a.second })).status).toBe(200);

    const rest = await s.rest('GET', '/token', { token: a.second });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ message: `The daily API quota of ${QUOTA} requests is used up.` });
    expect(h(rest, 'x-apiquota-remaining')).toBe('0');
    const untilMidnight = (Date.parse(midnights()[0]) - Date.now()) / 1000;
    expect(Math.abs(Number(h(rest, 'retry-after')) - untilMidnight)).toBeLessThan(5);

    const gql = await s.gql(GQL_TOKENS, {}, a.second);
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].message).toBe(`The daily API quota of ${QUOTA} requests is used up.`);
  });

  it('starts again on a new UTC day', async () => {
    const a = await createAccount(s, 'Yesterday');
    await db.query(
      `insert into api_quota_counters (account_id, day, hits) values ($1, (now() at time zone 'utc')::date - 1, $2)`,
      [a.id, QUOTA + 3],
    );
    const res = await s.rest('GET', '/token', { token: a.token });
    expect(res.status).toBe(200);
    expect(h(res, 'x-apiquota-remaining')).toBe(String(QUOTA - 1));
    const rows = await db.query('select hits from api_quota_counters where account_id = $1', [a.id]);
    expect(rows.rows).toEqual([{ hits: 1 }]);
  });

  it('GET /v1/api-quota and api_quota report it without using it up', async () => {
    const a = await createAccount(s, 'Report');
    await s.rest('GET', '/token', { token: a.token });
    const first = await s.rest('GET', '/api-quota', { token: a.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ quota: QUOTA, remaining: QUOTA - 1, reset: expect.stringMatching(ISO) });
    expect(midnights()).toContain(first.body.reset);
    expect(h(first, 'x-apiquota-remaining')).toBe(String(QUOTA - 1));

    const again = await s.rest('GET', '/api-quota', { token: a.token });
    expect(again.body.remaining).toBe(QUOTA - 1);
    // It is still a request of the token, so the rate limit sees it.
    expect(h(again, 'x-ratelimit-remaining')).toBe(String(LIMIT - 3));

    const gql = await s.gql('{ api_quota { quota remaining reset } }', {}, a.token);
    expect(gql.body.data.api_quota).toEqual(first.body);
    expect(h(gql, 'x-apiquota-remaining')).toBe(String(QUOTA - 1));
    // Asked for together with anything else, the request counts.
    const mixed = await s.gql('{ api_quota { remaining } tokens { id } }', {}, a.token);
    expect(mixed.body.data.api_quota.remaining).toBe(QUOTA - 2);
    expect(h(mixed, 'x-apiquota-remaining')).toBe(String(QUOTA - 2));
  });

  it('counter rows go with their token and account', async () => {
    const a = await account('Cleanup');
    await s.rest('GET', '/token', { token: a.second });
    expect((await db.query('select 1 from api_rate_counters where token_id = $1', [a.secondId])).rowCount).toBe(1);
    expect((await s.rest('DELETE', `/token/${a.secondId}`, { token: a.token })).status).toBe(204);
    expect((await db.query('select 1 from api_rate_counters where token_id = $1', [a.secondId])).rowCount).toBe(0);
  });
});

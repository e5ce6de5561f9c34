import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type HttpAnswer, type TestServer } from '../support/server.js';

/**
 * Limits that new tokens and packed documents cannot get around: the account's own rate window
 * counts all its tokens together, and a GraphQL document is worth one request per root field.
 */
const TOKEN_LIMIT = 4;
const ACCOUNT_LIMIT = 6;
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    roles: ['api', 'smtp'],
    env: {
      SMTP_PORT: '0',
      RATE_LIMIT_REQUESTS: String(TOKEN_LIMIT),
      ACCOUNT_RATE_LIMIT_REQUESTS: String(ACCOUNT_LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      API_QUOTA_PER_DAY: '1000',
    },
  });
});
afterAll(async () => {
  await s?.close();
});

const h = (res: HttpAnswer, name: string) => res.headers.get(name);

/** An account whose first token made `n` more tokens (each making one is a request of the first). */
async function accountWithTokens(name: string, n: number) {
  const a = await createAccount(s, name);
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const made = await s.rest('POST', '/token', { token: a.token, body: { name: `t${i}`, scopes: ['tokens_full'] } });
    expect(made.status).toBe(200);
    tokens.push(made.body.data.accessToken);
  }
  return { ...a, tokens };
}

describe('the account rate window', () => {
  it('counts every token of the account: fresh tokens make no new room', async () => {
    const a = await accountWithTokens('Many tokens', 3);
    // 3 requests so far (the creations). Each new token is far under its own limit.
    const statuses: number[] = [];
    for (const token of [...a.tokens, ...a.tokens]) statuses.push((await s.rest('GET', '/token', { token })).status);
    // 3 + 3 more reach the account's 6; the rest are refused although no token is over its own.
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const refused = await s.rest('GET', '/token', { token: a.tokens[0] });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(h(refused, 'retry-after'))).toBeGreaterThan(3500);
    const gql = await s.gql('{ tokens { id } }', {}, a.tokens[1]);
    expect([gql.status, gql.body.errors?.[0]?.extensions?.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
  });

  it('belongs to one account: another account is not slowed down', async () => {
    const busy = await accountWithTokens('Busy', 2);
    for (const token of [...busy.tokens, ...busy.tokens]) await s.rest('GET', '/token', { token });
    expect((await s.rest('GET', '/token', { token: busy.tokens[0] })).status).toBe(429);
    const calm = await createAccount(s, 'Calm');
    expect((await s.rest('GET', '/token', { token: calm.token })).status).toBe(200);
  });
});

describe('GraphQL documents', () => {
  it('count one request per root field, aliases and fragments included', async () => {
    const a = await createAccount(s, 'Aliases');
    const packed = await s.gql('{ a: tokens { id } b: tokens { id } ...F } fragment F on Query { c: tokens { id } }', {}, a.token);
    expect(packed.status).toBe(200);
    expect(h(packed, 'x-ratelimit-remaining')).toBe(String(TOKEN_LIMIT - 3));
    // Two more root fields pass the token's limit of 4: the whole document is refused, nothing runs.
    const over = await s.gql('{ a: tokens { id } b: tokens { id } }', {}, a.token);
    expect(over.status).toBe(429);
    expect(over.body.data).toBeUndefined();
  });

  it('count __typename and api_quota as nothing, and a document as at least one request', async () => {
    const a = await createAccount(s, 'Typename');
    const res = await s.gql('{ __typename api_quota { remaining } }', {}, a.token);
    expect(res.status).toBe(200);
    expect(h(res, 'x-ratelimit-remaining')).toBe(String(TOKEN_LIMIT - 1));
  });
});

describe('SMTP relay', () => {
  it('each relayed message is a request of its account: over the account window, 451 and the API is refused too', async () => {
    const a = await createAccount(s, 'Relay');
    const domain = await seedDomain(s, { accountId: a.id });
    const made = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { token: a.token, body: { name: 'relay' } });
    expect(made.status).toBe(201);
    const user = made.body.data;
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port: s.app.smtpPort!,
      secure: false,
      requireTLS: true,
      auth: { user: user.username, pass: user.password },
      tls: { rejectUnauthorized: false },
    } as SMTPTransport.Options);
    const send = (i: number) =>
      client.sendMail({ from: `app@${domain.name}`, to: `r${i}@example.net`, subject: `n${i}`, text: 'x' }).then(
        (info) => info.response,
        (err: { response: string }) => err.response,
      );
    // One request so far (the SMTP user's creation); five messages fill the window of six.
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(await send(i));
    client.close();
    expect(answers.slice(0, 5).every((r) => /^250 Message queued as /.test(r))).toBe(true);
    expect(answers[5]).toMatch(/^451 4\.7\.0 Too many requests for this account; try again in \d+ s/);
    expect((await s.rest('GET', '/token', { token: a.token })).status).toBe(429);
  });
});

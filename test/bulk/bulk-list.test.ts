import { seedDomain } from '../support/factories.js';
import { gqlAs, loginOk, userWith } from '../auth/helpers.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';

/** bulk_emails: the account's bulk requests for the console, GraphQL only (no /v1 route). */
describe('bulk_emails', () => {
  let s: TestServer;
  let mine: string[];
  const LIST = 'query($limit: Int!, $page: Int!) { bulk_emails(limit: $limit, page: $page) { id state created_at total_recipients_count validation_errors_count } }';
  const send = async (subject: string, token?: string) => {
    const res = await s.rest('POST', '/bulk-email', { token, body: [{ subject, to: [{ email: 'a@example.net' }, { email: 'b@example.net' }] }] });
    if (res.status !== 202) throw new Error(`bulk send: ${res.status} ${res.text}`);
    return res.body.bulk_email_id as string;
  };
  const list = async (limit: number, page: number, token?: string) => {
    const res = await s.gql(LIST, { limit, page }, token);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data.bulk_emails as { id: string; created_at: string; total_recipients_count: number }[];
  };

  beforeAll(async () => {
    s = await startTestServer();
    mine = [];
    for (let i = 0; i < 12; i++) mine.push(await send(`mine ${i}`));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('lists the account\'s requests newest first, a page at a time', async () => {
    const first = await list(10, 1);
    const second = await list(10, 2);
    expect(first.map((b) => b.id)).toEqual([...mine].reverse().slice(0, 10));
    expect(second.map((b) => b.id)).toEqual([...mine].reverse().slice(10));
    expect(first[0].total_recipients_count).toBe(2);
    const times = first.map((b) => Date.parse(b.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await list(10, 3)).toEqual([]);
  });

  it('refuses a page size out of bounds', async () => {
    for (const limit of [5, 101]) {
      const res = await s.gql(LIST, { limit, page: 1 });
      expect([limit, res.body.errors?.[0]?.extensions?.code, Object.keys(res.body.errors?.[0]?.extensions?.errors ?? {})]).toEqual([limit, 'VALIDATION_FAILED', ['limit']]);
    }
    expect((await s.gql(LIST, { limit: 10, page: 0 })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('shows another account none of them, and them none of its', async () => {
    const other = await createAccount(s, 'Bulk list stranger');
    expect(await list(100, 1, other.token)).toEqual([]);
    const theirs = await send('theirs', other.token);
    expect((await list(100, 1, other.token)).map((b) => b.id)).toEqual([theirs]);
    expect((await list(100, 1)).map((b) => b.id)).not.toContain(theirs);
  });

  it('shows a domain-limited token only the requests made within its domain', async () => {
    const a = await seedDomain(s);
    const b = await seedDomain(s);
    const inA = await tokenWith(s, ['email_full'], a.id);
    const inB = await tokenWith(s, ['email_full'], b.id);
    const madeInA = await send('in a', inA);
    const madeInB = await send('in b', inB);
    expect((await list(100, 1, inA)).map((x) => x.id)).toEqual([madeInA]);
    expect((await list(100, 1, inB)).map((x) => x.id)).toEqual([madeInB]);
    // The whole account's token sees every request, those of its domains too.
    expect((await list(100, 1)).map((x) => x.id)).toEqual(expect.arrayContaining([madeInA, madeInB, ...mine]));

    // A user of A and B: the requests made within either, and its own made within both; A's token not that one.
    const u = await userWith(s, { role: 'manager', domains: [a.id, b.id] });
    const session = await loginOk(s, u.email, u.password);
    const made = await gqlAs(s, session, 'mutation($e: [JSONObject!]!) { send_bulk_email(emails: $e) { bulk_email_id } }', { e: [{ subject: 'user' }] });
    const byUser = made.body.data.send_bulk_email.bulk_email_id as string;
    const seen = await gqlAs(s, session, LIST, { limit: 100, page: 1 });
    expect(seen.body.data.bulk_emails.map((x: { id: string }) => x.id)).toEqual([byUser, madeInB, madeInA]);
    expect((await list(100, 1, inA)).map((x) => x.id)).toEqual([madeInA]);
  });

  it('refuses a token without email_full, and is not on /v1', async () => {
    const weak = await tokenWith(s, ['activity_read', 'domains_full']);
    const res = await s.gql(LIST, { limit: 10, page: 1 }, weak);
    expect([res.body.errors?.[0]?.extensions?.code, res.body.data?.bulk_emails ?? null]).toEqual(['FORBIDDEN', null]);
    expect((await s.rest('GET', '/bulk-email')).status).toBe(404);
    expect((await s.rest('GET', '/bulk-emails')).status).toBe(404);
  });
});

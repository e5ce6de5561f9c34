import { seedDomain } from '../support/factories.js';
import { OPERATOR_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createWebhook, driveUntil, insertEvent, sql } from '../webhooks/engine-support.js';
import { send } from '../email-log/helpers.js';

/**
 * `overview`: the console's landing page. Each step and figure follows the account's real state,
 * within the caller's domains, and is null where the caller lacks the scope that reads it.
 */
let s: TestServer;
let receiver: Receiver;
let account: { id: string; token: string };

const OVERVIEW = '{ overview { sandbox waiting { count more } webhooks_failing setup { key done } } }';
async function overview(token?: string) {
  const res = await s.gql(OVERVIEW, {}, token);
  expect(res.body.errors).toBeUndefined();
  const o = res.body.data.overview;
  return { ...o, steps: Object.fromEntries(o.setup.map((x: { key: string; done: boolean | null }) => [x.key, x.done])) };
}

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  account = await createAccount(s, 'Overview account');
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

it('follows a new account from nothing to a verified domain, a sent email and a failing webhook', async () => {
  let o = await overview(account.token);
  expect(o.sandbox).toBe(true);
  expect(o.setup.map((x: { key: string }) => x.key)).toEqual(['domain', 'verified', 'token', 'email', 'webhook']);
  // The token the account was made with is its first.
  expect(o.steps).toEqual({ domain: false, verified: false, token: true, email: false, webhook: false });
  expect(o.waiting).toEqual({ count: 0, more: false });
  expect(o.webhooks_failing).toBe(0);

  await seedDomain(s, { accountId: account.id, verified: false });
  expect((await overview(account.token)).steps).toMatchObject({ domain: true, verified: false });
  const domain = await seedDomain(s, { accountId: account.id });
  expect((await overview(account.token)).steps).toMatchObject({ domain: true, verified: true, email: false });

  // Scheduled an hour ahead, it waits.
  await send(s, domain, { token: account.token, send_at: Math.floor(Date.now() / 1000) + 3600 });
  o = await overview(account.token);
  expect(o.steps.email).toBe(true);
  expect(o.waiting).toEqual({ count: 1, more: false });

  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/overview', token: account.token });
  expect((await overview(account.token)).steps.webhook).toBe(true);
  receiver.respond('/overview', { status: 500 });
  await insertEvent(s, { account_id: account.id, domain_id: domain.id, type: 'activity.clicked' });
  await driveUntil(s, async () => (await sql(s, 'select 1 from webhook_attempts where webhook_id = ? and delivery_id is not null', [hook.id])).length > 0);
  expect((await overview(account.token)).webhooks_failing).toBe(1);
});

it('shows only what the caller may read, and counts only its domains', async () => {
  const admin = await overview();
  // A token that reads domains only: the rest is unknown to it, not false.
  const narrow = await overview(await tokenWith(s, ['domains_read']));
  expect(narrow.steps).toEqual({ domain: admin.steps.domain, verified: admin.steps.verified, token: null, email: null, webhook: null });
  expect(narrow.waiting).toBeNull();
  expect(narrow.webhooks_failing).toBeNull();

  // A token limited to a new domain sees none of the account's other mail waiting.
  const mine = await seedDomain(s);
  const other = await seedDomain(s);
  await send(s, other, { send_at: Math.floor(Date.now() / 1000) + 3600 });
  const limited = await overview(await tokenWith(s, ['domains_read', 'activity_read', 'webhooks_full'], mine.id));
  expect(limited.steps).toMatchObject({ domain: true, verified: true, email: false, webhook: false });
  expect(limited.waiting).toEqual({ count: 0, more: false });
  expect((await overview()).waiting.count).toBeGreaterThanOrEqual(1);
});

it('answers 401 without a token', async () => {
  const res = await s.gql(OVERVIEW, {}, null);
  expect(res.body.data?.overview ?? null).toBeNull();
  expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
});

describe('usage', () => {
  const USAGE = '{ usage { plan retention_days verification_credits api_quota { quota remaining } } }';

  it("answers the account's plan, retention, credits and quota, each to the scope that reads it", async () => {
    const added = await s.gql('mutation($id: ID!) { operator_add_verification_credits(account_id: $id, credits: 25) { id } }', { id: account.id }, OPERATOR_TOKEN);
    expect(added.body.errors).toBeUndefined();
    const full = (await s.gql(USAGE, {}, account.token)).body.data.usage;
    // The account was made on the default plan of the test server: free, whose mail is kept 7 days.
    expect(full).toMatchObject({ plan: 'free', retention_days: 7, verification_credits: 25 });
    expect(full.api_quota.quota).toBeGreaterThan(0);
    expect(full.api_quota.remaining).toBeLessThanOrEqual(full.api_quota.quota);
    const narrow = (await s.gql(USAGE, {}, await tokenWith(s, ['domains_read']))).body.data.usage;
    expect(narrow).toMatchObject({ verification_credits: null, api_quota: null });
    expect((await s.gql(USAGE, {}, null)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('domain_choices', () => {
  const CHOICES = '{ domain_choices { id name } }';

  it('lists the domains a caller reaches to any scope over domain data, and none to others', async () => {
    const a = await seedDomain(s, { accountId: account.id, name: `a-${Date.now()}.example.test` });
    const b = await seedDomain(s, { accountId: account.id, name: `b-${Date.now()}.example.test` });
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    const all = (await s.gql(CHOICES, {}, account.token)).body.data.domain_choices;
    expect(ids(all)).toEqual(expect.arrayContaining([a.id, b.id]));
    // Sorted by name.
    expect(all.map((d: { name: string }) => d.name)).toEqual([...all.map((d: { name: string }) => d.name)].sort());
    const readsActivity = await tokenWith(s, ['activity_read'], undefined, account.token);
    expect(ids((await s.gql(CHOICES, {}, readsActivity)).body.data.domain_choices)).toEqual(ids(all));
    const limited = await tokenWith(s, ['activity_read'], a.id, account.token);
    expect(ids((await s.gql(CHOICES, {}, limited)).body.data.domain_choices)).toEqual([a.id]);
    const unrelated = await tokenWith(s, ['sms_read'], undefined, account.token);
    expect((await s.gql(CHOICES, {}, unrelated)).body.data.domain_choices).toEqual([]);
    // Another account's domains are never among them.
    expect(ids((await s.gql(CHOICES)).body.data.domain_choices)).not.toContain(a.id);
  });
});

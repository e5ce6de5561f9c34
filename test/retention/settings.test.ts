import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { address, emailsOf, send, sql, waitFor } from '../email-log/helpers.js';
import { retentionPurgeWorker } from '../../src/modules/retention/retention.worker.js';

/**
 * Retention days are settings: each plan's from the environment (`RETENTION_DAYS_<PLAN>`), and
 * the operator's over them (operator_set_retention). A change stamps the mail accepted after it
 * (every process's sender cache is told by NOTIFY); mail accepted before keeps its days; the
 * other logs follow the days in force at the purge's run.
 */
let s: TestServer;
let domain: { id: string; name: string };
const DAY = 86_400_000;
const RETENTION = `{ operator_retention { plan days default_days overridden } }`;
const SET = `mutation($p: String!, $d: Int) { operator_set_retention(plan: $p, days: $d) { plan days default_days overridden } }`;

async function purgeAt(days: number): Promise<void> {
  await retentionPurgeWorker.run({ now: new Date(Date.now() + days * DAY).toISOString() }, s.app.services, { id: 'test', retryCount: 0, retryLimit: 0 });
}

/** Days between the message's acceptance and its purge_after. */
async function keptDays(messageId: string): Promise<number> {
  const [row] = await sql<{ days: number }>(s, `select round(extract(epoch from purge_after - created_at) / 86400)::int as days from messages where id = ?`, [messageId]);
  return row.days;
}

beforeAll(async () => {
  s = await startTestServer({ env: { RETENTION_DAYS_FREE: '3', RETENTION_DAYS_ENTERPRISE: '400' } });
  domain = await seedDomain(s, { dkim: true });
});
afterAll(() => s?.close());

it("lists each plan's days in force, from the environment until the operator sets them", async () => {
  const res = await s.gql(RETENTION, {}, OPERATOR_TOKEN);
  expect(res.body.data.operator_retention).toEqual([
    { plan: 'free', days: 3, default_days: 3, overridden: false },
    { plan: 'starter', days: 30, default_days: 30, overridden: false },
    { plan: 'professional', days: 90, default_days: 90, overridden: false },
    { plan: 'enterprise', days: 400, default_days: 400, overridden: false },
  ]);
});

it('stamps mail with the days in force when it is accepted, and keeps what was accepted before a change', async () => {
  const before = await send(s, domain, { to: [address()] });
  expect(await keptDays(before)).toBe(3);

  const set = await s.gql(SET, { p: 'free', d: 10 }, OPERATOR_TOKEN);
  expect(set.body.data.operator_set_retention).toEqual({ plan: 'free', days: 10, default_days: 3, overridden: true });
  // The sender cache hears of it by NOTIFY.
  const after = await waitFor('a send stamped with the new days', async () => {
    const id = await send(s, domain, { to: [address()] });
    return (await keptDays(id)) === 10 ? id : null;
  });
  expect(await keptDays(before)).toBe(3);

  // Their week of mail drops once both are past their days and delivery's hold on the week has
  // passed (partitions.ts mailHoldMs); until then every read hides each from its own time on.
  await emailsOf(s, before, 'delivered');
  await emailsOf(s, after, 'delivered');
  const stored = async () => (await sql(s, 'select id from messages where id in (?, ?)', [before, after])).length;
  await purgeAt(5);
  expect(await stored()).toBe(2);
  await purgeAt(30);
  expect(await stored()).toBe(0);
  expect((await s.rest('GET', `/messages/${before}`)).status).toBe(404);

  // Back to the environment's days.
  const reset = await s.gql(SET, { p: 'free', d: null }, OPERATOR_TOKEN);
  expect(reset.body.data.operator_set_retention).toEqual({ plan: 'free', days: 3, default_days: 3, overridden: false });
  await waitFor('a send stamped with the environment\'s days again', async () => (await keptDays(await send(s, domain, { to: [address()] }))) === 3);
}, 60_000);

it("purges the other logs by the days in force at the purge's run", async () => {
  await s.gql(SET, { p: 'free', d: 20 }, OPERATOR_TOKEN);
  const made = await s.rest('POST', '/bulk-email', {
    body: [{ from: { email: `sender@${domain.name}` }, to: [{ email: address() }], subject: 'Bulk', text: 'b' }],
  });
  expect(made.status).toBe(202);
  const id = made.body.bulk_email_id;
  await waitFor('the bulk send to complete', async () => (await s.rest('GET', `/bulk-email/${id}`)).body.data?.state === 'completed');
  // Past the environment's 3 days, within the operator's 20.
  await purgeAt(10);
  expect((await s.rest('GET', `/bulk-email/${id}`)).status).toBe(200);
  await purgeAt(21);
  expect((await s.rest('GET', `/bulk-email/${id}`)).status).toBe(404);
}, 60_000);

it('refuses days out of range, unknown plans and anyone but the operator', async () => {
  for (const [p, d, field] of [['free', 0, 'days'], ['free', 3651, 'days'], ['gold', 5, 'plan']] as const) {
    const res = await s.gql(SET, { p, d }, OPERATOR_TOKEN);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(Object.keys(res.body.errors[0].extensions.errors ?? {})).toContain(field);
  }
  for (const query of [RETENTION, SET]) {
    const res = await s.gql(query, { p: 'free', d: 1 }, ADMIN_TOKEN);
    expect(res.body.errors[0].extensions.code).toMatch(/FORBIDDEN|UNAUTHENTICATED/);
  }
  expect((await s.gql(RETENTION, {}, OPERATOR_TOKEN)).body.data.operator_retention[0]).toMatchObject({ plan: 'free', days: 20 });
});

import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { setPlan, sql } from '../email-log/helpers.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createWebhook, driveUntil, insertEvent } from '../webhooks/engine-support.js';
import { purgeExpired } from '../../src/modules/retention/retention.purge.js';
import { periodOf, periodStart, PARTITION_DAYS } from '../../src/db/partitions.js';
import { newId, sortableId } from '../../src/lib/ids.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';

/**
 * The webhook log (webhook_attempts) and webhook deliveries are partitioned by week of their ids:
 * the weeks are made ahead by the retention job, a row of a week not made yet waits in the default
 * partition until its week is made, rows past their account's retention are hidden by the reads
 * (the log, a replay), and a week drops whole once no plan in use keeps anything in it.
 */
let s: TestServer;
let receiver: Receiver;
let adminId: string;
let hook: { id: string };
let domain: { id: string; name: string };
let other: { id: string; token: string };
let unsorted: string;
const DAY = 86_400_000;
const WEEK = PARTITION_DAYS * DAY;
const ATTEMPTS = { table: 'webhook_attempts', idPrefix: '' };
const DELIVERIES = { table: 'webhook_deliveries', idPrefix: 'msg_' };

const partitions = async (table = ATTEMPTS.table) =>
  (await sql<{ name: string }>(s, `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by 1`, [table])).map(
    (r) => r.name,
  );
const partitionOf = async (id: string, table = ATTEMPTS.table) =>
  (await sql<{ part: string }>(s, `select tableoid::regclass::text as part from ${table} where id = ?`, [id]))[0]?.part ?? null;
const weekName = (offsetWeeks: number, t = ATTEMPTS) => periodOf(t, periodStart(Date.now() + offsetWeeks * WEEK)).name;
const purgeAt = (days: number) => purgeExpired(s.app.services, { now: new Date(Date.now() + days * DAY) });

/** An attempt of the webhook written straight to the table, with its id and when it was attempted. */
async function attempt(id: string, attemptedAt = new Date()): Promise<string> {
  await sql(
    s,
    `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms) values (?, ?, null, 'activity.sent', ?, true, 200, 5)`,
    [id, hook.id, attemptedAt],
  );
  return id;
}
/** A delivery of the webhook written straight to the table: failed, so a replay may queue it again. */
async function delivery(id: string, createdAt = new Date()): Promise<string> {
  await sql(
    s,
    `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
     values (?, ?, ?, 'activity.sent', '{}', 'failed', 1, null, ?, ?)`,
    [id, hook.id, newId(), createdAt, createdAt],
  );
  return id;
}
const replay = async (since: Date) => (await s.rest('POST', `/webhooks/${hook.id}/replay?since=${Math.floor(since.getTime() / 1000)}`)).body.data?.replayed;
const logIds = async () => ((await s.rest('GET', `/webhooks/${hook.id}/log?limit=100`)).body.data as { id: string }[]).map((r) => r.id);

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  adminId = await accountIdOf(s);
  // Its plan keeps every week a year, until the last test moves it down.
  other = await createAccount(s, 'Longer-kept account');
  await setPlan(s, other.id, 'enterprise');
  domain = await seedDomain(s);
  hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/partitions' });
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

it('keeps the webhook log in weeks of its ids, this one and four ahead, beside a default', async () => {
  // The weeks the template was migrated in may be behind: the job makes what is missing.
  await purgeAt(0);
  const names = await partitions();
  for (let w = 0; w <= 4; w++) expect(names).toContain(weekName(w));
  expect(names).toContain('webhook_attempts_default');
  // The webhook's test request, written through the service, is in this week's partition.
  const [test] = await sql<{ id: string }>(s, 'select id from webhook_attempts where webhook_id = ? and delivery_id is null', [hook.id]);
  expect(await partitionOf(test.id)).toBe(weekName(0));
  // An id of no week made (an id from before ids were sortable) is in the default.
  unsorted = await attempt(`zz${newId(14)}`);
  expect(await partitionOf(unsorted)).toBe('webhook_attempts_default');
});

it('keeps webhook deliveries in weeks of their ids too, the engine\'s among them', async () => {
  const names = await partitions(DELIVERIES.table);
  for (let w = 0; w <= 4; w++) expect(names).toContain(weekName(w, DELIVERIES));
  expect(names).toContain('webhook_deliveries_default');
  // An event on the webhook's domain: the engine's delivery of it is in this week.
  await insertEvent(s, { account_id: adminId, domain_id: domain.id, type: 'activity.sent', payload: { n: 1 } });
  await driveUntil(s, async () => receiver.received('/partitions').some((r) => r.json?.type === 'activity.sent'));
  const [sent] = await sql<{ id: string }>(s, `select id from webhook_deliveries where webhook_id = ? and type = 'activity.sent'`, [hook.id]);
  expect(await partitionOf(sent.id, DELIVERIES.table)).toBe(weekName(0, DELIVERIES));
  expect(await partitionOf(await delivery(`msg_zz${newId(22)}`), DELIVERIES.table)).toBe('webhook_deliveries_default');
});

it('moves a row of a week not made yet out of the default when the job makes its week', async () => {
  const later = await attempt(sortableId(16, Date.now() + 6 * WEEK));
  expect(await partitionOf(later)).toBe('webhook_attempts_default');
  const work = await purgeAt(14);
  expect(work.partitions.made).toEqual(expect.arrayContaining([weekName(5), weekName(6)]));
  expect(await partitionOf(later)).toBe(weekName(6));
  // The row of no week stays in the default, purged by rows by its own account's retention (7 days).
  expect(work.deleted.webhook_attempts_default).toBe(1);
  expect(await partitionOf(unsorted)).toBeNull();
  // The default refuses that week's ids no more than it did: the guard it had while the week was made is gone.
  const [{ n }] = await sql<{ n: number }>(s, `select count(*)::int as n from pg_constraint where conrelid = 'webhook_attempts_default'::regclass and contype = 'c'`);
  expect(n).toBe(0);
});

it('hides attempts past the account\'s retention from the log while their week is kept', async () => {
  const old = await attempt(sortableId(), new Date(Date.now() - 10 * DAY));
  const young = await attempt(sortableId(), new Date(Date.now() - 2 * DAY));
  await setPlan(s, adminId, 'free');
  expect(await logIds()).toContain(young);
  expect(await logIds()).not.toContain(old);
  expect(await partitionOf(old)).toBe(weekName(0));
  // On a plan that keeps 30 days it shows again: nothing was deleted.
  await setPlan(s, adminId, 'starter');
  expect(await logIds()).toContain(old);
});

it('replays no delivery past the account\'s retention while its week is kept', async () => {
  const old = await delivery(`msg_${sortableId(24)}`, new Date(Date.now() - 10 * DAY));
  await setPlan(s, adminId, 'free');
  expect(await replay(new Date(Date.now() - 20 * DAY))).toBe(0);
  await setPlan(s, adminId, 'starter');
  expect(await replay(new Date(Date.now() - 20 * DAY))).toBe(1);
  const [row] = await sql<{ state: string }>(s, 'select state from webhook_deliveries where id = ?', [old]);
  expect(row.state).toBe('pending');
  await sql(s, `update webhook_deliveries set state = 'failed' where id = ?`, [old]);
});

it('drops a week whole once it ended longer ago than the longest retention of the plans in use, and no sooner', async () => {
  const thisWeek = weekName(0);
  const kept = await attempt(sortableId());
  const keptDelivery = await delivery(`msg_${sortableId(24)}`);
  await setPlan(s, adminId, 'free');
  // An enterprise account keeps every week 365 days.
  expect((await purgeAt(120)).partitions.dropped.filter((name) => name.startsWith('webhook_'))).toEqual([]);
  expect(await partitionOf(kept)).toBe(thisWeek);
  expect(await partitionOf(keptDelivery, DELIVERIES.table)).toBe(weekName(0, DELIVERIES));

  await setPlan(s, other.id, 'professional');
  const before = sampleOf(await scrapeMetrics(s), 'postbox_retention_partitions_dropped_total{table="webhook_attempts"}') ?? 0;
  const work = await purgeAt(120);
  // A week drops once it ended 90 days before: this one (ending within 7 days) has, six weeks ahead has not.
  expect(work.partitions.dropped).toContain(thisWeek);
  expect(work.partitions.dropped).not.toContain(weekName(6));
  expect(await partitions()).not.toContain(thisWeek);
  expect(await partitionOf(kept)).toBeNull();
  expect(work.partitions.dropped).toContain(weekName(0, DELIVERIES));
  expect(await partitionOf(keptDelivery, DELIVERIES.table)).toBeNull();
  const attemptWeeks = work.partitions.dropped.filter((name) => name.startsWith('webhook_attempts_p')).length;
  expect(sampleOf(await scrapeMetrics(s), 'postbox_retention_partitions_dropped_total{table="webhook_attempts"}')).toBe(before + attemptWeeks);

  // The job run at the real time makes this week again, and what was written meanwhile moves into it.
  const meanwhile = await attempt(sortableId());
  expect(await partitionOf(meanwhile)).toBe('webhook_attempts_default');
  expect((await purgeAt(0)).partitions.made).toContain(thisWeek);
  expect(await partitionOf(meanwhile)).toBe(thisWeek);
});

import { newId } from '../../src/lib/ids.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { attemptsOf, createWebhook, deliveriesOf, driveUntil, insertEvent, makeDue, sql, webhookRow } from './engine-support.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';

let s: TestServer;
let receiver: Receiver;
let accountId: string;
const admin = `admin-${Date.now()}@example.com`;
const manager = `manager-${Date.now()}@example.com`;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
  for (const [email, role] of [
    [admin, 'admin'],
    [manager, 'manager'],
  ]) {
    await sql(
      s,
      `insert into account_users (id, created_at, updated_at, account_id, email, role, permissions, domain_ids, template_ids,
         requires_periodic_password_change, name, last_name, two_fa)
       values (?, now(), now(), ?, ?, ?, '{}', '{}', '{}', false, 'A', 'B', false)`,
      [newId(), accountId, email, role],
    );
  }
});

afterAll(async () => {
  await receiver.close();
  await s.close();
});

/** Failed attempts of earlier deliveries, as the log would hold them. */
async function seedFailures(webhookId: string, n: number, ago: string) {
  for (let i = 0; i < n; i++) {
    await sql(
      s,
      `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms)
       values (?, ?, ?, 'activity.opened', now() - ?::interval, false, 500, 5)`,
      [newId(), webhookId, `msg_seed${newId(20)}`, ago],
    );
  }
}

const mailJobs = async (to: string) =>
  (await sql(s, `select count(*)::int as n from pgboss.job where name = 'system-mail.send' and data->>'to' = ?`, [to]))[0].n;

describe('webhook failure accounting', () => {
  it('notifies the admins once at 10 failures in 24 h, pauses at 20, and starts over when re-enabled', async () => {
    const domain = await seedDomain(s);
    const webhook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/failing' });
    receiver.respond('/failing', { status: 500 });
    // Made two days ago (its test request then), it failed nine times in the last day; older
    // failures and failed test requests do not count.
    await sql(s, `update webhook_attempts set attempted_at = now() - interval '2 days' where webhook_id = ?`, [webhook.id]);
    await seedFailures(webhook.id, 9, '1 hour');
    await seedFailures(webhook.id, 6, '25 hours');
    await sql(
      s,
      `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms)
       values (?, ?, null, 'webhook.test', now() - interval '2 hours', false, 500, 5)`,
      [newId(), webhook.id],
    );

    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { type: 'clicked' } });
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [delivery] = await deliveriesOf(s, webhook.id);

    // The 10th failure: one mail to the admin, none to the manager; still enabled.
    let row = await webhookRow(s, webhook.id);
    expect(row.notified_at).not.toBeNull();
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: true, paused_reason: null });
    expect(await mailJobs(admin)).toBe(1);
    expect(await mailJobs(manager)).toBe(0);
    const [mail] = await mailsTo(s, admin);
    expect(mail.subject).toBe('Webhook "hook /failing" is failing');
    expect(mail.text).toContain('failed 10 times in the last 24 hours');
    expect(mail.text).toContain(receiver.url('/failing'));

    // The 11th: no second mail.
    await makeDue(s, delivery.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].attempts === 2);
    expect(await mailJobs(admin)).toBe(1);

    // The 20th pauses it, without another mail.
    await seedFailures(webhook.id, 8, '10 minutes');
    await makeDue(s, delivery.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].attempts === 3);
    row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: false, paused_reason: 'failures' });
    expect(row.paused_at).not.toBeNull();
    expect(await mailJobs(admin)).toBe(1);

    // Paused: its pending delivery waits, and new events make no deliveries.
    const [waiting] = await deliveriesOf(s, webhook.id);
    expect(waiting.state).toBe('pending');
    await makeDue(s, delivery.id);
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { type: 'clicked' } });
    await runTick(s.app.services);
    expect(await deliveriesOf(s, webhook.id)).toHaveLength(1);
    expect((await attemptsOf(s, delivery.id)).length).toBe(3);

    // Re-enabled: failures before its successful test request no longer count.
    receiver.respond('/failing', { status: 200 });
    expect((await s.rest('PUT', `/webhooks/${webhook.id}`, { body: { enabled: true } })).status).toBe(200);
    receiver.respond('/failing', { status: 500 });
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].attempts === 4);
    row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason, notified_at: row.notified_at }).toEqual({
      enabled: true,
      paused_reason: null,
      notified_at: null,
    });
    expect(await mailJobs(admin)).toBe(1);
  });

  it('drives real failures to the thresholds', async () => {
    const domain = await seedDomain(s);
    const webhook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.opened'], path: '/always-down' });
    // Its successful test request starts the failure window: nothing before it counts.
    await seedFailures(webhook.id, 15, '1 hour');
    receiver.respond('/always-down', { status: 502 });
    for (let i = 0; i < 20; i++) {
      await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.opened', payload: { n: i } });
    }
    const pausedSeries = 'postbox_webhooks_paused_total{reason="failures"}';
    const pausedBefore = sampleOf(await scrapeMetrics(s), pausedSeries) ?? 0;
    await driveUntil(s, async () => (await webhookRow(s, webhook.id)).paused_reason === 'failures', 30_000);
    // The pause is counted for the operator's alert (deploy/prometheus/postbox-alerts.yml).
    expect(sampleOf(await scrapeMetrics(s), pausedSeries)).toBe(pausedBefore + 1);
    const failures = await sql(s, `select count(*)::int as n from webhook_attempts where webhook_id = ? and not success and delivery_id is not null`, [
      webhook.id,
    ]);
    expect(failures[0].n).toBe(15 + 20);
    expect(await mailJobs(admin)).toBe(2); // one per webhook
    expect(deliveredCount('/always-down')).toBe(20);
  });
});

const deliveredCount = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test').length;

import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ISO, startTestServer, type TestServer } from '../support/server.js';
import { attemptsOf, createWebhook, deliveriesOf, driveUntil, insertEvent, makeDue, sql, webhookRow } from './engine-support.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';

let s: TestServer;
let receiver: Receiver;
let accountId: string;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
});

afterAll(async () => {
  await receiver.close();
  await s.close();
});

/** A webhook on a domain of its own, so no other test's events reach it. */
async function hook(path: string, events = ['activity.opened']) {
  const domain = await seedDomain(s);
  const webhook = await createWebhook(s, receiver, { domainId: domain.id, events, path });
  return { ...webhook, domainId: domain.id };
}

const opened = (domainId: string) =>
  insertEvent(s, {
    account_id: accountId,
    domain_id: domainId,
    type: 'activity.opened',
    payload: { id: 'act1', domain_id: domainId, type: 'opened', meta: [] },
  });

/** The requests of real deliveries to `path` (not the webhook.test request of its creation). */
const deliveredTo = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');

describe('webhook delivery', () => {
  it('delivers the events of a real send, signed both ways, with the SPEC.md activity fields', async () => {
    const domain = await seedDomain(s, { dkim: true });
    const webhook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent', 'activity.delivered'], path: '/sent' });
    const to = `bob-${Date.now()}@example.net`;
    const res = await s.rest('POST', '/email', {
      body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Hello there', text: 'Hi', tags: ['welcome'] },
    });
    expect(res.status).toBe(202);
    const messageId = res.headers.get('x-message-id');

    // A new delivery is written with its first outcome (docs/api-behaviour.md): once the receiver has
    // the requests, their record may still be on its way, from the worker's own tick.
    const recorded = async () => (await deliveriesOf(s, webhook.id)).filter((d) => d.state === 'delivered');
    await driveUntil(s, async () => deliveredTo('/sent').length >= 2 && (await recorded()).length >= 2, 30_000);
    const requests = deliveredTo('/sent');
    expect(requests.map((r) => r.json.type).sort()).toEqual(['activity.delivered', 'activity.sent']);
    const deliveries = await recorded();
    for (const r of requests) {
      expect(r.verified).toBe(true);
      expect(r.signatureOk && r.standardOk).toBe(true);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(r.json).sort()).toEqual(['created_at', 'data', 'type']);
      expect(r.json.created_at).toMatch(ISO);
      const data = r.json.data;
      expect(Object.keys(data).sort()).toEqual(
        ['created_at', 'domain_id', 'email', 'email_id', 'id', 'message_id', 'meta', 'subject', 'tags', 'type'].sort(),
      );
      expect(data).toMatchObject({ domain_id: domain.id, message_id: messageId, subject: 'Hello there', email: to, tags: ['welcome'], meta: [] });
      expect(data.type).toBe(r.json.type.replace('activity.', ''));
      expect(data.created_at).toMatch(ISO);
      // webhook-id is the delivery's id, and the body the exact bytes it stores.
      const delivery = deliveries.find((d) => d.id === r.headers['webhook-id'])!;
      expect(delivery).toBeDefined();
      expect(delivery.body).toBe(r.raw);
    }
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id)).every((d) => d.state === 'delivered'));
    for (const d of await deliveriesOf(s, webhook.id)) expect({ attempts: d.attempts, last_status: d.last_status }).toEqual({ attempts: 1, last_status: 200 });
  });

  it('retries a 500 with backoff and delivers the same body under the same webhook-id', async () => {
    const webhook = await hook('/flaky');
    receiver.respond('/flaky', { status: [500, 200] });
    await opened(webhook.domainId);

    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [pending] = await deliveriesOf(s, webhook.id);
    expect(pending).toMatchObject({ state: 'pending', last_status: 500 });
    const [first] = await attemptsOf(s, pending.id);
    // Backoff after the first failure: 15 to 30 s (30 s with jitter in its upper half).
    const wait = new Date(pending.next_attempt_at!).getTime() - new Date(first.attempted_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(15_000);
    expect(wait).toBeLessThanOrEqual(30_000 + first.duration_ms + 1000);

    // Not due yet: a tick leaves it alone.
    await runTick(s.app.services);
    expect(deliveredTo('/flaky')).toHaveLength(1);

    await makeDue(s, pending.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].state === 'delivered');
    const requests = deliveredTo('/flaky');
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.verified)).toBe(true);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([pending.id, pending.id]);
    expect(requests[1].raw).toBe(requests[0].raw);

    const attempts = await attemptsOf(s, pending.id);
    expect(attempts.map((a) => [a.success, a.status, a.error])).toEqual([
      [false, 500, 'HTTP 500'],
      [true, 200, null],
    ]);
    const [done] = await deliveriesOf(s, webhook.id);
    expect({ attempts: done.attempts, next_attempt_at: done.next_attempt_at }).toEqual({ attempts: 2, next_attempt_at: null });
  });

  it('does not retry a 400: one attempt, failed', async () => {
    const webhook = await hook('/bad');
    receiver.respond('/bad', { status: 400, body: 'no thanks' });
    await opened(webhook.domainId);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.state === 'failed');
    const [d] = await deliveriesOf(s, webhook.id);
    expect(d).toMatchObject({ attempts: 1, last_status: 400, next_attempt_at: null });
    await runTick(s.app.services);
    expect(deliveredTo('/bad')).toHaveLength(1);
    const [a] = await attemptsOf(s, d.id);
    expect(a).toMatchObject({ success: false, status: 400, response_excerpt: 'no thanks', type: 'activity.opened' });
    expect((await webhookRow(s, webhook.id)).enabled).toBe(true);
  });

  it('honours Retry-After on a 429', async () => {
    const webhook = await hook('/busy');
    receiver.respond('/busy', { status: 429, retryAfter: 120 });
    await opened(webhook.domainId);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [d] = await deliveriesOf(s, webhook.id);
    expect(d).toMatchObject({ state: 'pending', last_status: 429 });
    const [a] = await attemptsOf(s, d.id);
    const wait = new Date(d.next_attempt_at!).getTime() - new Date(a.attempted_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(120_000);
    expect(wait).toBeLessThanOrEqual(120_000 + a.duration_ms + 1000);
  });

  it('disables the webhook on 410 Gone', async () => {
    const webhook = await hook('/gone');
    receiver.respond('/gone', { status: 410 });
    await opened(webhook.domainId);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.state === 'failed');
    const row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: false, paused_reason: 'gone' });
    const got = await s.rest('GET', `/webhooks/${webhook.id}`);
    expect(got.body.data.enabled).toBe(false);

    // A disabled webhook gets no new deliveries.
    await opened(webhook.domainId);
    await runTick(s.app.services);
    expect(await deliveriesOf(s, webhook.id)).toHaveLength(1);
    expect(deliveredTo('/gone')).toHaveLength(1);
  });

  it('counts an answer slower than 3 s as a failure and retries it', async () => {
    const webhook = await hook('/slow');
    receiver.respond('/slow', { status: 200, delayMs: 3400 });
    await opened(webhook.domainId);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [d] = await deliveriesOf(s, webhook.id);
    expect(d).toMatchObject({ state: 'pending', last_status: null });
    const [a] = await attemptsOf(s, d.id);
    expect(a.success).toBe(false);
    expect(a.status).toBeNull();
    expect(a.error).toMatch(/timeout/);
    expect(a.duration_ms).toBeGreaterThanOrEqual(2900);
    expect(a.duration_ms).toBeLessThan(3400);
  });

  it('gives up past the retry window and pauses the webhook; its other pending deliveries wait', async () => {
    const webhook = await hook('/down');
    receiver.respond('/down', { status: 503 });
    await opened(webhook.domainId);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [d] = await deliveriesOf(s, webhook.id);
    // Three days and an hour later, still down.
    await sql(s, `update webhook_deliveries set created_at = now() - interval '73 hours' where id = ?`, [d.id]);
    await makeDue(s, d.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].state === 'gave_up');
    const [gaveUp] = await deliveriesOf(s, webhook.id);
    expect({ attempts: gaveUp.attempts, next_attempt_at: gaveUp.next_attempt_at }).toEqual({ attempts: 2, next_attempt_at: null });
    const row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: false, paused_reason: 'retry_window' });

    // A delivery still pending when its webhook was paused is kept, but not sent.
    const eventId = await opened(webhook.domainId);
    await sql(
      s,
      `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
       values ('msg_waiting000000000000001', ?, ?, 'activity.opened', '{}', 'pending', 0, now(), now(), now())`,
      [webhook.id, eventId],
    );
    const before = deliveredTo('/down').length;
    await runTick(s.app.services);
    expect(deliveredTo('/down')).toHaveLength(before);
    const waiting = (await deliveriesOf(s, webhook.id)).find((x) => x.id === 'msg_waiting000000000000001')!;
    expect(waiting.state).toBe('pending');

    // Re-enabled (the test request answers 2xx), it goes out.
    receiver.respond('/down', { status: 200 });
    const res = await s.rest('PUT', `/webhooks/${webhook.id}`, { body: { enabled: true } });
    expect(res.status).toBe(200);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id)).find((x) => x.id === 'msg_waiting000000000000001')!.state === 'delivered');
  });
});

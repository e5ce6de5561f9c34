import { ISO, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { engineIdle } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { attemptsOf, createWebhook, deliveriesOf, driveUntil, insertEvent, makeDue, sql, webhookRow } from '../webhooks/engine-support.js';
import { encrypt } from '../../src/lib/secrets.js';
import { newId } from '../../src/lib/ids.js';
import { recordSmsEvent, type SmsEventSms, type SmsEventType } from '../../src/modules/events/sms-events.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { assignNumber, createSmsWebhook, type AssignedNumber } from './support.js';

/** sms.* events through the webhook engine: who gets them, the exact envelope, and failure handling. */
let s: TestServer;
let receiver: Receiver;
let accountId: string;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const ALL = ['sms.sent', 'sms.delivered', 'sms.failed'];
const eventsAt = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');
const iso = (d: Date) => d.toISOString().replace(/Z$/, '000Z');

function smsOf(number: AssignedNumber, status: string, error: [string, string] | null = null): SmsEventSms {
  return {
    id: `sms_${newId(12)}`,
    from: number.telephone_number,
    to: '+15559876543',
    text: 'Your code is 123456',
    status,
    segment_count: 1,
    error_type: error?.[0] ?? null,
    error_description: error?.[1] ?? null,
    created_at: new Date('2026-01-02T03:04:05.678Z'),
    message: { id: `smsmsg_${newId(12)}` },
    recipient: { id: `rcpt_${newId(12)}`, number: '+15559876543', status: 'active', created_at: new Date('2025-12-31T23:59:59.001Z') },
  };
}

/** What SMS sending does: the event is written in the transaction of the status change. */
async function record(accountOf: string, numberId: string, type: SmsEventType, sms: SmsEventSms, at = new Date()): Promise<void> {
  await s.app.services.orm.em.fork().transactional(async (tx) => {
    recordSmsEvent(tx, accountOf, numberId, type, sms, at);
    await tx.flush();
  });
}

/** Every event waiting is dispatched, every batch taken posted, and every due delivery attempted. */
async function settle() {
  await driveUntil(s, () => engineIdle(s));
}

/** A webhook row written straight to the table: shapes the API refuses, to prove the engine ignores them. */
async function seedWebhook(row: { kind: string; domainId?: string; smsNumberId?: string; events: string[]; url: string; secret: string }) {
  const id = newId();
  await sql(
    s,
    `insert into webhooks (id, created_at, updated_at, account_id, kind, domain_id, sms_number_id, name, url, events, enabled, editable, secret_enc)
     values (?, now() - interval '1 hour', now(), ?, ?, ?, ?, 'seeded', ?, array(select jsonb_array_elements_text(?::jsonb)), true, true, ?)`,
    [id, accountId, row.kind, row.domainId ?? null, row.smsNumberId ?? null, row.url, JSON.stringify(row.events), encrypt(s.app.services.config.APP_SECRET, row.secret)],
  );
  receiver.secretFor(new URL(row.url).pathname, row.secret);
  return id;
}

describe('dispatch of sms.* events', () => {
  it('sends each event to the subscribed SMS webhooks of its number only, in the SPEC.md envelope', async () => {
    const number = await assignNumber(s, accountId);
    const otherNumber = await assignNumber(s, accountId);
    const domain = await seedDomain(s);
    const all = await createSmsWebhook(s, receiver, { smsNumberId: number.id, events: ALL, path: '/all' });
    const failedOnly = await createSmsWebhook(s, receiver, { smsNumberId: number.id, events: ['sms.failed'], path: '/failed-only' });
    await createSmsWebhook(s, receiver, { smsNumberId: otherNumber.id, events: ALL, path: '/other-number' });
    await createSmsWebhook(s, receiver, { smsNumberId: number.id, events: ALL, path: '/disabled', enabled: false });
    const paused = await createSmsWebhook(s, receiver, { smsNumberId: number.id, events: ALL, path: '/paused' });
    await sql(s, `update webhooks set paused_reason = 'failures', paused_at = now() where id = ?`, [paused.id]);
    await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/email' });
    // Rows the API would refuse: an email webhook "subscribed" to sms.*, an inbound-route target.
    await seedWebhook({ kind: 'email', domainId: domain.id, events: ALL, url: receiver.url('/email-sms'), secret: 'email-sms-secret' });
    await seedWebhook({ kind: 'sms_inbound', smsNumberId: number.id, events: ALL, url: receiver.url('/inbound'), secret: 'inbound-secret' });
    const neighbour = await createAccount(s, 'SMS events neighbour');
    const theirNumber = await assignNumber(s, neighbour.id);
    await createSmsWebhook(s, receiver, { smsNumberId: theirNumber.id, events: ALL, path: '/neighbour', token: neighbour.token });

    // Before any webhook existed: reaches nobody.
    await record(accountId, number.id, 'sms.sent', smsOf(number, 'sent'), new Date(Date.now() - 3600_000));
    const at = { sent: new Date(), delivered: new Date(Date.now() + 1), failed: new Date(Date.now() + 2) };
    const sms = smsOf(number, 'sent');
    await record(accountId, number.id, 'sms.sent', sms, at.sent);
    await record(accountId, number.id, 'sms.delivered', { ...sms, status: 'delivered' }, at.delivered);
    const failed = smsOf(number, 'failed', ['invalid_number', 'The number does not exist.']);
    await record(accountId, number.id, 'sms.failed', failed, at.failed);
    await settle();

    const got = eventsAt('/all');
    expect(got.map((r) => r.json.type).sort()).toEqual(['sms.delivered', 'sms.failed', 'sms.sent']);
    for (const r of got) {
      expect(r.verified).toBe(true);
      expect(r.secret).toBe(all.secret);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(Object.keys(r.json)).toEqual(['type', 'sms_number_id', 'created_at', 'sms_webhook_id', 'url', 'data']);
      expect(r.json).toMatchObject({ sms_number_id: number.id, sms_webhook_id: all.id, url: receiver.url('/all') });
      expect(r.json.created_at).toMatch(ISO);
    }
    const byType = Object.fromEntries(got.map((r) => [r.json.type, r.json]));
    expect(byType['sms.sent'].created_at).toBe(iso(at.sent));
    expect(byType['sms.sent'].data).toEqual({
      from: number.telephone_number,
      to: '+15559876543',
      created_at: iso(at.sent),
      status: 'sent',
      sms_message_id: sms.message.id,
      sms: {
        id: sms.id,
        from: number.telephone_number,
        to: '+15559876543',
        text: 'Your code is 123456',
        status: 'sent',
        segment_count: 1,
        error_type: null,
        error_description: null,
        created_at: '2026-01-02T03:04:05.678000Z',
        recipient: { id: sms.recipient.id, number: '+15559876543', status: 'active', created_at: '2025-12-31T23:59:59.001000Z' },
      },
    });
    expect(byType['sms.delivered'].data).toMatchObject({ status: 'delivered', created_at: iso(at.delivered), sms: { id: sms.id, status: 'delivered' } });
    expect(byType['sms.failed'].data).toMatchObject({
      status: 'failed',
      sms: { id: failed.id, error_type: 'invalid_number', error_description: 'The number does not exist.' },
    });

    const onlyFailed = eventsAt('/failed-only');
    expect(onlyFailed.map((r) => r.json.type)).toEqual(['sms.failed']);
    expect(onlyFailed[0]).toMatchObject({ verified: true, secret: failedOnly.secret });
    expect(onlyFailed[0].json).toMatchObject({ sms_webhook_id: failedOnly.id, url: receiver.url('/failed-only') });
    for (const path of ['/other-number', '/disabled', '/paused', '/email', '/email-sms', '/inbound', '/neighbour']) {
      expect([path, eventsAt(path)]).toEqual([path, []]);
    }
    expect(await deliveriesOf(s, all.id)).toHaveLength(3);
  });

  it('SMS webhooks never get email events, even an account-wide one', async () => {
    const number = await assignNumber(s, accountId);
    const domain = await seedDomain(s);
    const email = await createWebhook(s, receiver, { domainId: domain.id, events: ['bulk_email.completed'], path: '/email-bulk' });
    // An SMS webhook row "subscribed" to an email kind: the API refuses it, the engine must too.
    await seedWebhook({ kind: 'sms', smsNumberId: number.id, events: ['bulk_email.completed'], url: receiver.url('/sms-bulk'), secret: 'sms-bulk' });
    await insertEvent(s, { account_id: accountId, domain_id: null, type: 'bulk_email.completed', payload: { id: 'bulk1' } });
    await settle();
    expect(eventsAt('/email-bulk').map((r) => r.json)).toEqual([{ type: 'bulk_email.completed', created_at: expect.stringMatching(ISO), data: { id: 'bulk1' } }]);
    expect(eventsAt('/sms-bulk')).toEqual([]);
    expect(await deliveriesOf(s, email.id)).toHaveLength(1);
  });

  it('delivers a row written for an inbound-route target (kind sms_inbound) like any other', async () => {
    const number = await assignNumber(s, accountId);
    const id = await seedWebhook({ kind: 'sms_inbound', smsNumberId: number.id, events: [], url: receiver.url('/forward'), secret: 'forward-secret' });
    const body = JSON.stringify({ hello: 'inbound' });
    await sql(
      s,
      `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
       values (?, ?, ?, 'sms.inbound', ?, 'pending', 0, now(), now(), now())`,
      [`msg_${newId(24)}`, id, newId(), body],
    );
    await driveUntil(s, async () => (await deliveriesOf(s, id))[0].state === 'delivered');
    const [r] = receiver.received('/forward');
    expect(r).toMatchObject({ raw: body, verified: true, secret: 'forward-secret' });
  });
});

describe('failure handling of SMS webhooks', () => {
  async function hookAndSend(path: string, behaviour: Parameters<Receiver['respond']>[1]) {
    const number = await assignNumber(s, accountId);
    const webhook = await createSmsWebhook(s, receiver, { smsNumberId: number.id, events: ['sms.sent'], path });
    receiver.respond(path, behaviour);
    await record(accountId, number.id, 'sms.sent', smsOf(number, 'sent'));
    return webhook;
  }

  it('retries a 500 with backoff and delivers the same signed body under the same webhook-id', async () => {
    const webhook = await hookAndSend('/flaky', { status: [500, 200] });
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [pending] = await deliveriesOf(s, webhook.id);
    expect(pending).toMatchObject({ state: 'pending', last_status: 500, type: 'sms.sent' });
    const [first] = await attemptsOf(s, pending.id);
    const wait = new Date(pending.next_attempt_at!).getTime() - new Date(first.attempted_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(15_000);

    await runTick(s.app.services);
    expect(eventsAt('/flaky')).toHaveLength(1);
    await makeDue(s, pending.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].state === 'delivered');
    const requests = eventsAt('/flaky');
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.verified && r.secret === webhook.secret)).toBe(true);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([pending.id, pending.id]);
    expect(requests[1].raw).toBe(requests[0].raw);
    const attempts = await attemptsOf(s, pending.id);
    expect(attempts.map((a) => [a.success, a.status])).toEqual([
      [false, 500],
      [true, 200],
    ]);
  });

  it('honours Retry-After on a 429', async () => {
    const webhook = await hookAndSend('/busy', { status: 429, retryAfter: 120 });
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [d] = await deliveriesOf(s, webhook.id);
    const [a] = await attemptsOf(s, d.id);
    const wait = new Date(d.next_attempt_at!).getTime() - new Date(a.attempted_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(120_000);
    expect(wait).toBeLessThanOrEqual(120_000 + a.duration_ms + 1000);
  });

  it('does not retry a 400, and a 410 disables the webhook', async () => {
    const bad = await hookAndSend('/bad', { status: 400 });
    const gone = await hookAndSend('/gone', { status: 410 });
    await driveUntil(s, async () => (await deliveriesOf(s, bad.id))[0]?.state === 'failed' && (await deliveriesOf(s, gone.id))[0]?.state === 'failed');
    expect((await deliveriesOf(s, bad.id))[0]).toMatchObject({ attempts: 1, next_attempt_at: null });
    expect((await webhookRow(s, bad.id)).enabled).toBe(true);
    const row = await webhookRow(s, gone.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: false, paused_reason: 'gone' });
    expect((await s.rest('GET', `/sms-webhooks/${gone.id}`)).body.data.enabled).toBe(false);
  });

  it('pauses after the retry window', async () => {
    const webhook = await hookAndSend('/down', { status: 503 });
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const [d] = await deliveriesOf(s, webhook.id);
    await sql(s, `update webhook_deliveries set created_at = now() - interval '73 hours' where id = ?`, [d.id]);
    await makeDue(s, d.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0].state === 'gave_up');
    const row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason }).toEqual({ enabled: false, paused_reason: 'retry_window' });
  });

  it('the 10/20 failures rule of email webhooks does not apply: no notification, no pause', async () => {
    const webhook = await hookAndSend('/many', { status: 500 });
    await sql(s, `update webhook_attempts set attempted_at = now() - interval '2 days' where webhook_id = ?`, [webhook.id]);
    for (let i = 0; i < 25; i++) {
      await sql(
        s,
        `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms)
         values (?, ?, ?, 'sms.sent', now() - interval '1 hour', false, 500, 5)`,
        [newId(), webhook.id, `msg_seed${newId(20)}`],
      );
    }
    await driveUntil(s, async () => (await deliveriesOf(s, webhook.id))[0]?.attempts === 1);
    const row = await webhookRow(s, webhook.id);
    expect({ enabled: row.enabled, paused_reason: row.paused_reason, notified_at: row.notified_at }).toEqual({
      enabled: true,
      paused_reason: null,
      notified_at: null,
    });
    const [jobs] = await sql(s, `select count(*)::int as n from pgboss.job where name = 'system-mail.send' and data->>'kind' = 'webhook_failing'`);
    expect(jobs.n).toBe(0);
  });
});

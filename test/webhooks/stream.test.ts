import { seedDomain, accountIdOf } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ADMIN_TOKEN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';
import { createWebhook, driveUntil, insertEvent, sql } from './engine-support.js';

/** `subscription { webhook_deliveries(webhook_id) }`: each attempt, live, once it is logged. */
let s: TestServer;
let receiver: Receiver;
let accountId: string;
let domain: { id: string; name: string };

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
  domain = await seedDomain(s);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const QUERY = (id: string) => `subscription { webhook_deliveries(webhook_id: "${id}") { id delivery_id type success status attempted_at error } }`;

it('streams each attempt of the webhook, failures and successes, and nothing of other webhooks', async () => {
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/live' });
  const other = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/other' });
  receiver.respond('/live', { status: 200 });
  const stream = await subscribe(s, QUERY(hook.id), ADMIN_TOKEN);
  try {
    await stream.live(
      async () => {
        await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.sent', payload: { probe: true } });
        await runOnce();
      },
      (e) => e.data?.webhook_deliveries?.success === true,
    );
    receiver.respond('/live', { status: 500 });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.sent', payload: { n: 2 } });
    await runOnce();
    const failed = await stream.next((e) => e.data?.webhook_deliveries?.status === 500, 15_000);
    const entry = failed.data.webhook_deliveries;
    expect(entry).toMatchObject({ type: 'activity.sent', success: false, status: 500 });
    expect(entry.delivery_id).toMatch(/^msg_/);
    expect(entry.attempted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const [row] = await sql(s, 'select webhook_id from webhook_deliveries where id = ?', [entry.delivery_id]);
    expect(row.webhook_id).toBe(hook.id);
    // The other webhook's attempts (it got the same events) never show here.
    const ids = stream.events.map((e) => e.data?.webhook_deliveries?.delivery_id).filter(Boolean);
    const theirs = await sql(s, 'select id from webhook_deliveries where webhook_id = ?', [other.id]);
    expect(ids.some((id: string) => theirs.some((t: any) => t.id === id))).toBe(false);
  } finally {
    stream.close();
  }
}, 60_000);

it('needs webhooks_full, and a token of another domain is refused (403) and hears nothing', async () => {
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/guarded' });
  const elsewhere = await seedDomain(s);
  const limited = await tokenWith(s, ['webhooks_full'], elsewhere.id);
  const stream = await subscribe(s, QUERY(hook.id), limited);
  const denied = await subscribe(s, QUERY(hook.id), await tokenWith(s, ['domains_read']));
  try {
    const first = await denied.next(() => true, 5000);
    expect(first.errors?.length).toBeGreaterThan(0);
    receiver.respond('/guarded', { status: 200 });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.sent', payload: {} });
    await driveUntil(s, async () => (await sql(s, `select 1 from webhook_attempts where webhook_id = ? and delivery_id is not null`, [hook.id])).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(stream.events.filter((e) => e.data?.webhook_deliveries)).toEqual([]);
    expect(stream.events.map((e) => e.errors?.[0]?.extensions?.code)).toEqual(['FORBIDDEN']);
  } finally {
    stream.close();
    denied.close();
  }
}, 60_000);

async function runOnce() {
  const { runTick } = await import('../../src/engines/webhooks/webhook.worker.js');
  await runTick(s.app.services);
}

it('refuses an SMS webhook with 404, as GET /v1/webhooks/{id}/log does (those are for sms_* scopes)', async () => {
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/made-sms' });
  await sql(s, `update webhooks set kind = 'sms', domain_id = null where id = ?`, [hook.id]);
  expect((await s.rest('GET', `/webhooks/${hook.id}/log`)).status).toBe(404);
  const stream = await subscribe(s, QUERY(hook.id), ADMIN_TOKEN);
  try {
    expect(await stream.ended).toBe('ended');
    expect(stream.response.status).toBe(404);
    expect(stream.events.map((e) => e.errors?.[0]?.extensions?.code)).toEqual(['NOT_FOUND']);
  } finally {
    stream.close();
  }
}, 60_000);

it('streams no attempt notice without a domain (an SMS webhook\'s), whatever the token', async () => {
  // Attempt notices as webhook.delivery.ts sends them, one without a domain, then one with a domain as the
  // positive control: NOTIFY keeps order, so had the first passed, it would be here.
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/notices' });
  const notice = (domainId: string | null, n: number) =>
    sql(s, 'select pg_notify(?, ?)', [
      'postbox_events',
      JSON.stringify({
        topic: `webhook_attempts:${accountId}`,
        detail: {
          webhook_id: hook.id,
          domain_id: domainId,
          entry: { id: `a${n}`, delivery_id: null, type: 'sms.sent', attempted_at: new Date().toISOString(), success: true, status: 200, duration_ms: 1, response_excerpt: '', error: null },
        },
      }),
    ]);
  const stream = await subscribe(s, QUERY(hook.id), await tokenWith(s, ['webhooks_full']));
  try {
    let n = 0;
    await stream.live(async () => {
      await notice(null, ++n);
      await notice(domain.id, ++n);
    }, (e) => !!e.data?.webhook_deliveries);
    const heard = stream.events.map((e) => e.data?.webhook_deliveries?.id).filter(Boolean);
    // Only the even (domain) notices came through.
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.every((id: string) => Number(id.slice(1)) % 2 === 0)).toBe(true);
  } finally {
    stream.close();
  }
}, 60_000);

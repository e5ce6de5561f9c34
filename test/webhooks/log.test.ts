import { newId } from '../../src/lib/ids.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { createWebhook, deliveriesOf, driveUntil, insertEvent, sql } from './engine-support.js';

let s: TestServer;
let receiver: Receiver;
let accountId: string;
let domainId: string;
let webhookId: string;

const ITEM_KEYS = ['attempted_at', 'delivery_id', 'duration_ms', 'error', 'id', 'response_excerpt', 'status', 'success', 'type'];
const NOT_FOUND = { message: 'Resource not found.' };

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
  domainId = (await seedDomain(s)).id;
  webhookId = (await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/log' })).id;
  // Eleven delivery attempts a minute apart, after the creation's test request.
  for (let i = 1; i <= 11; i++) {
    await sql(
      s,
      `insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
       values (?, ?, ?, 'activity.opened', now() + ? * interval '1 minute', ?, ?, 12, ?, ?)`,
      [newId(), webhookId, `msg_log${String(i).padStart(3, '0')}`, i, i % 2 === 0, i % 2 === 0 ? 200 : 500, i % 2 ? `status 500` : 'ok', i % 2 ? 'HTTP 500' : null],
    );
  }
});

afterAll(async () => {
  await receiver.close();
  await s.close();
});

describe('GET /v1/webhooks/{id}/log', () => {
  it('lists attempts newest first with the full pager', async () => {
    const res = await s.rest('GET', `/webhooks/${webhookId}/log?limit=10`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 2, per_page: 10, total: 12 });
    expect(res.body.meta.path).toMatch(/\/v1\/webhooks\/.+\/log$/);
    expect(Object.keys(res.body.links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(res.body.links.next).toMatch(/page=2/);
    const [first] = res.body.data;
    expect(Object.keys(first).sort()).toEqual(ITEM_KEYS);
    expect(first).toMatchObject({ delivery_id: 'msg_log011', type: 'activity.opened', success: false, status: 500, duration_ms: 12, response_excerpt: 'status 500', error: 'HTTP 500' });
    expect(first.attempted_at).toMatch(ISO);
    expect(res.body.data[1]).toMatchObject({ delivery_id: 'msg_log010', success: true, status: 200, error: null });
    const times = res.body.data.map((d: { attempted_at: string }) => d.attempted_at);
    expect([...times].sort().reverse()).toEqual(times);

    const page2 = await s.rest('GET', `/webhooks/${webhookId}/log?limit=10&page=2`);
    expect(page2.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12 });
    // The oldest entry is the test request of the creation.
    expect(page2.body.data[1]).toMatchObject({ delivery_id: null, type: 'webhook.test', success: true, status: 200 });
  });

  it('validates the pager', async () => {
    const res = await s.rest('GET', `/webhooks/${webhookId}/log?limit=5`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { limit: ['The limit must be at least 10.'] } });
  });

  it('answers 404, 401 and 403 as it should', async () => {
    expect((await s.rest('GET', '/webhooks/nope/log')).body).toEqual(NOT_FOUND);
    const other = await createAccount(s);
    const res = await s.rest('GET', `/webhooks/${webhookId}/log`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect((await s.rest('GET', `/webhooks/${webhookId}/log`, { token: null })).status).toBe(401);
    const noScope = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', `/webhooks/${webhookId}/log`, { token: noScope })).status).toBe(403);
    const otherDomain = await seedDomain(s);
    const limited = await tokenWith(s, ['webhooks_full'], otherDomain.id);
    expect((await s.rest('GET', `/webhooks/${webhookId}/log`, { token: limited })).status).toBe(403);
    const own = await tokenWith(s, ['webhooks_full'], domainId);
    expect((await s.rest('GET', `/webhooks/${webhookId}/log`, { token: own })).status).toBe(200);
  });

  it('is the same through GraphQL', async () => {
    const q = `query($id: ID!, $page: Int, $limit: Int) { webhook_log(webhook_id: $id, page: $page, limit: $limit) {
      data { id delivery_id type attempted_at success status duration_ms response_excerpt error }
      meta { current_page from last_page per_page to total } } }`;
    const res = await s.gql(q, { id: webhookId, page: 2, limit: 10 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.webhook_log.meta).toEqual({ current_page: 2, from: 11, last_page: 2, per_page: 10, to: 12, total: 12 });
    expect(res.body.data.webhook_log.data[0].delivery_id).toBe('msg_log001');
    const other = await createAccount(s, 'Third');
    const denied = await s.gql(q, { id: webhookId }, other.token);
    expect(denied.body.errors[0].message).toBe('Resource not found.');
  });
});

describe('replay', () => {
  it('re-sends the failed deliveries of a window with the same webhook-id', async () => {
    const domain = await seedDomain(s);
    const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/replay' });
    receiver.respond('/replay', { status: 400 });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { n: 1 } });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { n: 2 } });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).filter((d) => d.state === 'failed').length === 2);
    // One of them is older than the window replayed.
    const [old, recent] = await deliveriesOf(s, hook.id);
    await sql(s, `update webhook_deliveries set created_at = now() - interval '2 days' where id = ?`, [old.id]);

    receiver.respond('/replay', { status: 200 });
    const since = Math.floor(Date.now() / 1000) - 3600;
    const res = await s.rest('POST', `/webhooks/${hook.id}/replay?since=${since}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { replayed: 1 } });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).find((d) => d.id === recent.id)!.state === 'delivered');
    const sent = receiver.received('/replay').filter((r) => r.headers['webhook-id'] === recent.id);
    expect(sent).toHaveLength(2);
    expect(sent[1].raw).toBe(sent[0].raw);
    expect(sent.every((r) => r.verified)).toBe(true);
    expect((await deliveriesOf(s, hook.id)).find((d) => d.id === old.id)!.state).toBe('failed');

    // GraphQL, with ISO bounds: the old one now.
    const from = new Date(Date.now() - 3 * 86400_000).toISOString();
    const until = new Date(Date.now() - 86400_000).toISOString();
    const gql = await s.gql(
      `mutation($id: ID!, $since: String!, $until: String) { replay_webhook(webhook_id: $id, since: $since, until: $until) { replayed } }`,
      { id: hook.id, since: from, until },
    );
    expect(gql.body).toEqual({ data: { replay_webhook: { replayed: 1 } } });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).find((d) => d.id === old.id)!.state === 'delivered');
  });

  it('validates since and until, and scopes the webhook', async () => {
    const path = `/webhooks/${webhookId}/replay`;
    let res = await s.rest('POST', path);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ since: ['The since field is required.'] });
    res = await s.rest('POST', `${path}?since=yesterday`);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { since: ['The since must be an ISO 8601 timestamp or a Unix timestamp.'] },
    });
    res = await s.rest('POST', `${path}?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z`);
    expect(res.body.errors).toEqual({ until: ['The until must be a date after or equal to since.'] });
    res = await s.rest('POST', `${path}?since=2026-01-02`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { replayed: 0 } });
    const other = await createAccount(s, 'Fourth');
    res = await s.rest('POST', `${path}?since=0`, { token: other.token });
    expect(res.status).toBe(404);
    expect((await s.rest('POST', `${path}?since=0`, { token: await tokenWith(s, ['domains_full']) })).status).toBe(403);
    expect((await s.rest('POST', `${path}?since=0`, { token: null })).status).toBe(401);
  });
});

describe('rotate_webhook_secret', () => {
  const ROTATE = 'mutation($id: ID!) { rotate_webhook_secret(webhook_id: $id) { id secret } }';

  it('signs the next delivery with the new secret only, and logs the change without the secret', async () => {
    const domain = await seedDomain(s);
    const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/rotate' });
    const res = await s.gql(ROTATE, { id: hook.id });
    expect(res.body.errors).toBeUndefined();
    const fresh = res.body.data.rotate_webhook_secret.secret as string;
    expect(fresh).not.toBe(hook.secret);
    expect(fresh.length).toBe(hook.secret.length);
    expect((await s.gql(`{ webhook(webhook_id: "${hook.id}") { secret } }`)).body.data.webhook.secret).toBe(fresh);

    // The receiver knows both; the request must verify with the new one.
    receiver.secretFor('/rotate', hook.secret, fresh);
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { n: 1 } });
    await driveUntil(s, async () => receiver.received('/rotate').some((r) => r.json?.type === 'activity.clicked'));
    const [sent] = receiver.received('/rotate').filter((r) => r.json?.type === 'activity.clicked');
    expect(sent.secret).toBe(fresh);

    const [audit] = await sql(s, `select changes from audit_events where subject_id = ? and action = 'webhook.updated' order by created_at desc limit 1`, [hook.id]);
    expect(audit.changes).toEqual({ secret: {} });
  });

  it('is refused to a token without webhooks_full and for another account\'s webhook', async () => {
    const domain = await seedDomain(s);
    const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/rotate-refused' });
    const readOnly = await tokenWith(s, ['domains_read', 'activity_read']);
    expect((await s.gql(ROTATE, { id: hook.id }, readOnly)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const stranger = await createAccount(s, 'Stranger to the webhook');
    expect((await s.gql(ROTATE, { id: hook.id }, stranger.token)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await s.gql(`{ webhook(webhook_id: "${hook.id}") { secret } }`)).body.data.webhook.secret).toBe(hook.secret);
  });
});

describe('webhook_delivery and retry_webhook_delivery', () => {
  const DETAIL = 'query($id: ID!) { webhook_delivery(delivery_id: $id) { id webhook_id type state attempts last_status body } }';
  const RETRY = 'mutation($id: ID!) { retry_webhook_delivery(delivery_id: $id) { id state attempts } }';

  it('shows a delivery with the body it sends, and sends one failed delivery again', async () => {
    const domain = await seedDomain(s);
    const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/one' });
    receiver.respond('/one', { status: 400 });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked', payload: { n: 7 } });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).some((d) => d.state === 'failed'));
    const [failed] = await deliveriesOf(s, hook.id);
    const shown = (await s.gql(DETAIL, { id: failed.id })).body.data.webhook_delivery;
    expect(shown).toMatchObject({ id: failed.id, webhook_id: hook.id, type: 'activity.clicked', state: 'failed', attempts: 1, last_status: 400 });
    const [sentBefore] = receiver.received('/one').filter((r) => r.headers['webhook-id'] === failed.id);
    expect(shown.body).toBe(sentBefore.raw);

    // Retried once the receiver answers: same id, same bytes.
    receiver.respond('/one', { status: 200 });
    const retried = await s.gql(RETRY, { id: failed.id });
    expect(retried.body.data.retry_webhook_delivery).toMatchObject({ id: failed.id, state: 'pending', attempts: 0 });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).find((d) => d.id === failed.id)!.state === 'delivered');
    const again = receiver.received('/one').filter((r) => r.headers['webhook-id'] === failed.id);
    expect(again).toHaveLength(2);
    expect(again[1].raw).toBe(again[0].raw);
    // Delivered now: another retry is refused.
    const refused = await s.gql(RETRY, { id: failed.id });
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('is not found for another account or past retention, and needs webhooks_full', async () => {
    const domain = await seedDomain(s);
    const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.clicked'], path: '/one-scoped' });
    receiver.respond('/one-scoped', { status: 400 });
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.clicked' });
    await driveUntil(s, async () => (await deliveriesOf(s, hook.id)).some((d) => d.state === 'failed'));
    const [d] = await deliveriesOf(s, hook.id);
    const stranger = await createAccount(s, 'Stranger to the delivery');
    for (const op of [DETAIL, RETRY]) {
      expect((await s.gql(op, { id: d.id }, stranger.token)).body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect((await s.gql(op, { id: d.id }, await tokenWith(s, ['activity_read']))).body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect((await s.gql(op, { id: 'x'.repeat(65) })).body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    }
    // Past the account's retention (free: 7 days) it is gone from view, and cannot be retried.
    await sql(s, `update webhook_deliveries set created_at = now() - interval '30 days' where id = ?`, [d.id]);
    expect((await s.gql(DETAIL, { id: d.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await s.gql(RETRY, { id: d.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await deliveriesOf(s, hook.id)).find((x) => x.id === d.id)!.state).toBe('failed');
  });
});

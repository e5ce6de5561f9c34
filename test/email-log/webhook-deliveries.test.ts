import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { createWebhook, deliveriesOf, driveUntil } from '../webhooks/engine-support.js';
import { emailsOf, send } from './helpers.js';

/** The single email's webhook deliveries (GraphQL only): each delivery of one of its events, newest first. */
let s: TestServer;
let receiver: Receiver;
let domain: { id: string; name: string };
let ok: { id: string };
let down: { id: string };
let elsewhere: { id: string };
let emailId: string;

const Q = `query($id: ID!) { email(email_id: $id) { id status
  webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at } } }`;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  domain = await seedDomain(s, { dkim: true });
  const other = await seedDomain(s, { dkim: true });
  ok = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent', 'activity.delivered'], path: '/ok' });
  down = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.delivered'], path: '/down' });
  // The same events of another domain of the account: its deliveries are not this email's.
  elsewhere = await createWebhook(s, receiver, { domainId: other.id, events: ['activity.sent', 'activity.delivered'], path: '/elsewhere' });
  receiver.respond('/down', { status: 500 });
  const [email] = await emailsOf(s, await send(s, domain));
  emailId = email.id;
  await emailsOf(s, await send(s, other));
  // Every delivery attempted once: 3 for the email (sent and delivered to /ok, delivered to /down), 2 elsewhere.
  await driveUntil(s, async () => {
    const all = [...(await deliveriesOf(s, ok.id)), ...(await deliveriesOf(s, down.id)), ...(await deliveriesOf(s, elsewhere.id))];
    return all.length === 5 && all.every((d) => d.attempts > 0);
  });
});

afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

describe('email { webhook_deliveries }', () => {
  it("lists the deliveries of the email's events to the account's webhooks, newest first", async () => {
    const res = await s.gql(Q, { id: emailId });
    expect(res.body.errors).toBeUndefined();
    const rows = res.body.data.email.webhook_deliveries as any[];
    expect(rows).toHaveLength(3);
    const stored = [...(await deliveriesOf(s, ok.id)), ...(await deliveriesOf(s, down.id))];
    expect(rows.map((r) => r.id).sort()).toEqual(stored.map((d) => d.id).sort());
    const byKey = Object.fromEntries(rows.map((r) => [`${r.webhook_id} ${r.type}`, r]));
    expect(byKey[`${ok.id} activity.sent`]).toMatchObject({ webhook_name: 'hook /ok', state: 'delivered', attempts: 1, last_status: 200 });
    expect(byKey[`${ok.id} activity.delivered`]).toMatchObject({ webhook_name: 'hook /ok', state: 'delivered', attempts: 1, last_status: 200 });
    // Failed once and waiting for its retry (at least 15 s away).
    expect(byKey[`${down.id} activity.delivered`]).toMatchObject({ webhook_name: 'hook /down', state: 'pending', attempts: 1, last_status: 500 });
    // The ids are the `webhook-id` headers the receiver got.
    const sentIds = receiver.received('/ok').map((r) => r.headers['webhook-id']);
    expect(sentIds).toEqual(expect.arrayContaining([byKey[`${ok.id} activity.sent`].id, byKey[`${ok.id} activity.delivered`].id]));
    for (const r of rows) expect(r.created_at).toMatch(PLAIN);
    const keys = rows.map((r) => `${r.created_at} ${r.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('is null for a caller without webhooks_full, the rest of the email all the same', async () => {
    const token = await tokenWith(s, ['activity_read']);
    const res = await s.gql(Q, { id: emailId }, token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.email).toMatchObject({ id: emailId, status: 'delivered', webhook_deliveries: null });
    const both = await tokenWith(s, ['activity_read', 'webhooks_full']);
    expect((await s.gql(Q, { id: emailId }, both)).body.data.email.webhook_deliveries).toHaveLength(3);
  });

  it("is another account's email: NOT_FOUND", async () => {
    const stranger = await createAccount(s, 'Stranger');
    const res = await s.gql(Q, { id: emailId }, stranger.token);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('is not on /v1: GET /v1/email/{id} keeps SPEC.md\'s shape', async () => {
    const res = await s.rest('GET', `/email/${emailId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(emailId);
    expect(res.body.data).not.toHaveProperty('webhook_deliveries');
    expect(res.text).not.toContain('webhook_deliveries');
  });
});

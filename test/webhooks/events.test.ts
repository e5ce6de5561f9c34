import { accountIdOf, seedDomain } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { engineIdle } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, ISO, OPERATOR_TOKEN, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { createWebhook, deliveriesOf, driveUntil, insertEvent, sql } from './engine-support.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';

/** Which events reach which webhooks, and the envelope and data of each kind produced for real. */
let s: TestServer;
let receiver: Receiver;
let accountId: string;
let other: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  accountId = await accountIdOf(s);
  other = await createAccount(s);
});

afterAll(async () => {
  await receiver.close();
  await s.close();
});

const deliveredTo = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');
const delivered = (webhookId: string) => async () => {
  const rows = await deliveriesOf(s, webhookId);
  return rows.length > 0 && rows.every((d) => d.state === 'delivered');
};
/** Every event waiting is dispatched, every batch taken posted, and every due delivery attempted. */
async function settle() {
  await driveUntil(s, () => engineIdle(s));
}

describe('dispatch', () => {
  it('sends a maintenance window to every subscribed webhook of every account, with its domain_id', async () => {
    const mine = await seedDomain(s);
    const theirs = await seedDomain(s, { token: other.token });
    const a = await createWebhook(s, receiver, { domainId: mine.id, events: ['maintenance.start', 'maintenance.end'], path: '/m-a' });
    const b = await createWebhook(s, receiver, { domainId: theirs.id, events: ['maintenance.start'], path: '/m-b', token: other.token });
    await createWebhook(s, receiver, { domainId: mine.id, events: ['activity.sent'], path: '/m-none' });

    const res = await s.gql('mutation { operator_start_maintenance(note: "db upgrade") { id } }', {}, OPERATOR_TOKEN);
    expect(res.body.errors).toBeUndefined();
    await settle();
    await driveUntil(s, delivered(a.id));
    await driveUntil(s, delivered(b.id));
    for (const [path, domainId] of [
      ['/m-a', mine.id],
      ['/m-b', theirs.id],
    ]) {
      const [r] = deliveredTo(path);
      expect(r.verified).toBe(true);
      expect(r.json.type).toBe('maintenance.start');
      expect(r.json.created_at).toMatch(ISO);
      expect(r.json.data.domain_id).toBe(domainId);
    }
    expect(deliveredTo('/m-none')).toHaveLength(0);
  });

  it('keeps events to their domain and subscribed types, and to webhooks that existed before them', async () => {
    const d1 = await seedDomain(s);
    const d2 = await seedDomain(s);
    const earlier = new Date(Date.now() - 60_000);
    const hook = await createWebhook(s, receiver, { domainId: d1.id, events: ['activity.clicked'], path: '/scoped' });
    await insertEvent(s, { account_id: accountId, domain_id: d1.id, type: 'activity.clicked', payload: { n: 'before' }, created_at: earlier });
    await insertEvent(s, { account_id: accountId, domain_id: d2.id, type: 'activity.clicked', payload: { n: 'other domain' } });
    await insertEvent(s, { account_id: accountId, domain_id: d1.id, type: 'activity.opened', payload: { n: 'not subscribed' } });
    await insertEvent(s, { account_id: accountId, domain_id: d1.id, type: 'activity.clicked', payload: { n: 'yes' } });
    await settle();
    expect(deliveredTo('/scoped').map((r) => r.json.data.n)).toEqual(['yes']);
    // Dispatching again makes nothing twice.
    await runTick(s.app.services);
    expect(await deliveriesOf(s, hook.id)).toHaveLength(1);
  });

  it('delivers activity.deferred only to accounts on a paid plan', async () => {
    const free = await seedDomain(s);
    const paid = await seedDomain(s, { token: other.token });
    await sql(s, `update accounts set plan = 'starter' where id = ?`, [other.id]);
    await createWebhook(s, receiver, { domainId: free.id, events: ['activity.deferred'], path: '/def-free' });
    await createWebhook(s, receiver, { domainId: paid.id, events: ['activity.deferred'], path: '/def-paid', token: other.token });
    await insertEvent(s, { account_id: accountId, domain_id: free.id, type: 'activity.deferred', payload: { type: 'deferred' } });
    await insertEvent(s, { account_id: other.id, domain_id: paid.id, type: 'activity.deferred', payload: { type: 'deferred' } });
    await settle();
    expect(deliveredTo('/def-free')).toHaveLength(0);
    expect(deliveredTo('/def-paid')).toHaveLength(1);
  });
});

describe('event kinds from their producers', () => {
  it('recipient.on_hold_added and _removed carry the SPEC.md fields', async () => {
    const d = await seedDomain(s);
    await createWebhook(s, receiver, { domainId: d.id, events: ['recipient.on_hold_added', 'recipient.on_hold_removed'], path: '/hold' });
    const added = await s.rest('POST', '/suppressions/on-hold-list', { body: { domain_id: d.id, recipients: ['held@example.org'] } });
    expect(added.status).toBe(201);
    const del = await s.rest('DELETE', '/suppressions/on-hold-list', { body: { domain_id: d.id, ids: [added.body.data[0].id] } });
    expect(del.status).toBeLessThan(300);
    await settle();
    const requests = deliveredTo('/hold');
    expect(requests.map((r) => r.json.type).sort()).toEqual(['recipient.on_hold_added', 'recipient.on_hold_removed']);
    for (const r of requests) {
      expect(r.verified).toBe(true);
      expect(r.json.created_at).toMatch(ISO);
      expect(Object.keys(r.json.data).sort()).toEqual(['added_at', 'domain_id', 'email', 'object', 'on_hold_until']);
      expect(r.json.data).toMatchObject({ domain_id: d.id, object: 'on_hold_recipient', email: 'held@example.org' });
      expect(r.json.data.added_at).toMatch(ISO);
    }
  });

  it('bulk_email.completed reaches the account\'s webhooks with the SPEC.md fields', async () => {
    const d = await seedDomain(s, { dkim: true });
    await createWebhook(s, receiver, { domainId: d.id, events: ['bulk_email.completed'], path: '/bulk' });
    const theirs = await seedDomain(s, { token: other.token });
    await createWebhook(s, receiver, { domainId: theirs.id, events: ['bulk_email.completed'], path: '/bulk-other', token: other.token });
    const res = await s.rest('POST', '/bulk-email', {
      body: [{ from: { email: `b@${d.name}` }, to: [{ email: 'one@example.net' }], subject: 'Bulk', text: 'b' }],
    });
    expect(res.status).toBe(202);
    await driveUntil(s, async () => deliveredTo('/bulk').length === 1, 30_000);
    const [r] = deliveredTo('/bulk');
    expect(r.verified).toBe(true);
    expect(r.json.type).toBe('bulk_email.completed');
    expect(r.json.created_at).toMatch(ISO);
    expect(Object.keys(r.json.data).sort()).toEqual(
      ['id', 'messages_id', 'state', 'suppressed_recipients', 'suppressed_recipients_count', 'total_recipients_count', 'validation_errors', 'validation_errors_count'].sort(),
    );
    expect(r.json.data).toMatchObject({ id: res.body.bulk_email_id, state: 'completed', total_recipients_count: 1 });
    await settle();
    expect(deliveredTo('/bulk-other')).toHaveLength(0);
  });

  it('sender_identity.verified has a plain created_at and the identity record', async () => {
    const d = await seedDomain(s);
    await createWebhook(s, receiver, { domainId: d.id, events: ['sender_identity.verified'], path: '/identity' });
    const made = await s.rest('POST', '/identities', { body: { domain_id: d.id, email: `sales@${d.name}`, name: 'Sales' } });
    expect(made.status).toBe(201);
    const [mail] = await mailsTo(s, `sales@${d.name}`);
    const link = new URL(/https?:\/\/\S+\/confirm\/identity\?token=\S+/.exec(mail.text)![0]);
    expect((await fetch(`${s.url}${link.pathname}${link.search}`)).status).toBe(200);
    await settle();
    const [r] = deliveredTo('/identity');
    expect(r.verified).toBe(true);
    expect(r.json.type).toBe('sender_identity.verified');
    expect(r.json.created_at).toMatch(PLAIN);
    expect(r.json.data).toMatchObject({ object: 'sender_identity', id: made.body.data.id, email: `sales@${d.name}`, is_verified: true });
    expect(Object.keys(r.json.data).sort()).toEqual(['object', ...Object.keys(made.body.data)].sort());
    expect(r.json.data.domain.created_at).toMatch(ISO);
  });
});

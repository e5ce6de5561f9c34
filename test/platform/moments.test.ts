import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { auditQuery } from '../audit/support.js';
import { createWebhook } from '../webhooks/engine-support.js';

/**
 * The moments callers name (src/lib/moment.ts): each route takes its documented forms and only
 * dates and times that exist, on the routes of the fixed `YYYY-MM-DD HH:MM:SS` form and on those
 * that take ISO 8601.
 */
let s: TestServer;
let receiver: Receiver;
let reader: { id: string; token: string };
let domainId: string;
let webhookId: string;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  await accountIdOf(s);
  domainId = (await seedDomain(s)).id;
  webhookId = (await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/moments' })).id;
  // A fresh account whose log holds one event: its first token, made now.
  reader = await createAccount(s, 'Moment reader');
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

const AUDIT_FORMAT = ['The date from must be an ISO 8601 timestamp or a Unix timestamp.'];
const ACTIVITY_FORMAT = ['The date from must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.'];

describe('routes that take ISO 8601 (audit events, webhook replay)', () => {
  it.each([
    '2026-01-01',
    '2026-01-01T10:00',
    '2026-01-01 10:00',
    '2026-01-01T10:00:00Z',
    '2026-01-01T10:00:00.123456789+02:00',
    '2026-01-01T10:00:00-0530',
    '2024-02-29T12:00:00Z',
    '1767225600',
  ])('takes %s', async (value) => {
    const res = await auditQuery(s, { date_from: value }, reader.token);
    expect(res.body.errors).toBeUndefined();
  });

  it.each([
    '2026-02-30',
    '2026-02-30T00:00:00Z',
    '2025-02-29T12:00:00Z',
    '2026-04-31 10:00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60',
    '2026-01-01T10:00:60Z',
    '2026-01-01T10:00+24:00',
    '2026-01-01T10:00+02:60',
    '2026-13-01',
    'yesterday',
  ])('refuses %s, which names no moment that exists', async (value) => {
    const res = await auditQuery(s, { date_from: value }, reader.token);
    expect(res.body.errors[0].extensions.errors).toEqual({ date_from: AUDIT_FORMAT });
  });

  it('reads an offset as the distance of the wall time from UTC', async () => {
    const [made] = (await auditQuery(s, {}, reader.token)).body.data.audit_events.data;
    const at = new Date(made.created_at).getTime();
    // The same instants as wall times two hours ahead of UTC.
    const ahead = (ms: number) => new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const total = async (date_to: string) => (await auditQuery(s, { date_to }, reader.token)).body.data.audit_events.meta.total;
    expect(await total(ahead(at - 60_000))).toBe(0);
    expect(await total(ahead(at + 60_000))).toBe(1);
  });

  it('refuses a replay from a day that does not exist, and takes one that does', async () => {
    const replay = (since: string) => s.rest('POST', `/webhooks/${webhookId}/replay?since=${encodeURIComponent(since)}`);
    const refused = await replay('2026-02-30T00:00:00Z');
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ since: ['The since must be an ISO 8601 timestamp or a Unix timestamp.'] });
    expect((await replay('2026-02-28T00:00:00.5-05:00')).status).toBe(202);
  });
});

describe('routes of the fixed form (activity)', () => {
  const activity = (from: string) =>
    s.rest('GET', `/activity/${domainId}?date_from=${encodeURIComponent(from)}&date_to=${Math.floor(Date.now() / 1000) + 60}`);

  it.each(['2026-01-15T09:00:00Z', '2026-01-15', '2026-01-15 09:00', '2026-01-15 09:00:00.5', '2026-01-15 09:00:00Z', '2026-01-15 24:00:00'])(
    'refuses %s',
    async (value) => {
      const res = await activity(value);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ date_from: ACTIVITY_FORMAT });
    },
  );

  it.each(['2026-01-15 09:00:00', ' 2026-01-15 09:00:00 ', '1768467600'])('takes %j', async (value) => {
    expect((await activity(value)).status).toBe(200);
  });
});

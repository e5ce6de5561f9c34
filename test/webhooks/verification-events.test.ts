import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  emailListVerifiedData,
  emailSingleVerifiedData,
  recordVerificationEvent,
} from '../../src/modules/events/verification-events.js';
import { createWebhook, driveUntil } from './engine-support.js';

/** The verification events' payloads, recorded as the verification module will, reach webhooks signed. */
let s: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

it('builds SPEC.md payloads and delivers them to the account\'s subscribed webhooks', async () => {
  const domain = await seedDomain(s);
  await createWebhook(s, receiver, { domainId: domain.id, events: ['email_single.verified', 'email_list.verified'], path: '/verify' });
  const accountId = await accountIdOf(s);
  const at = new Date('2026-11-22T10:00:00.123Z');
  const single = emailSingleVerifiedData({ id: 'v1', address: 'a@example.net', status: 'completed', result: 'valid', error: null });
  const list = emailListVerifiedData({
    id: 'l1', name: 'List', total: 5, verification_started: at, verification_ended: at, created_at: at, updated_at: at,
    status: { name: 'verified', count: 4 }, source: 'api', statistics: { valid: 3, typo: 1 },
  });
  expect(list.statistics).toEqual({
    valid: 3, catch_all: 0, mailbox_full: 0, role_based: 0, unknown: 0, syntax_error: 0, typo: 1,
    mailbox_not_found: 0, disposable: 0, mailbox_blocked: 0, failed: 0, not_verified: 1,
  });
  expect(list.created_at).toBe('2026-11-22T10:00:00.123000Z');
  const em = s.app.services.orm.em.fork();
  await em.transactional(async (tx) => {
    recordVerificationEvent(tx as never, accountId, 'email_single.verified', single);
    recordVerificationEvent(tx as never, accountId, 'email_list.verified', list);
  });
  await driveUntil(s, async () => receiver.received('/verify').filter((r) => r.json?.type !== 'webhook.test').length >= 2);
  const got = receiver.received('/verify').filter((r) => r.json?.type !== 'webhook.test');
  for (const r of got) expect(r.verified).toBe(true);
  expect(got.find((r) => r.json.type === 'email_single.verified')!.json.data).toEqual(single);
  expect(got.find((r) => r.json.type === 'email_list.verified')!.json.data).toEqual(list);
});

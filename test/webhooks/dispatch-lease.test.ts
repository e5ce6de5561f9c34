import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { attempt } from '../../src/engines/webhooks/webhook.delivery.js';
import { dispatchEvents } from '../../src/engines/webhooks/event.dispatch.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { recordRound } from '../../src/engines/webhooks/round.record.js';
import { createWebhook, insertEvent, sql, startEngineBed, stopEngineBed } from './engine-support.js';

/**
 * A dispatched delivery is written only with its first attempt's outcome; until then its batch's
 * lease row records it. A worker that dies after dispatching (before posting, or after posting
 * but before recording) loses nothing: once the lease runs out, the next tick of any worker
 * delivers it, under the same webhook-id, and the log shows it. The api role alone, so only this
 * test's ticks run the engine; the "dead" worker is a dispatch whose hand-off never records.
 */
let s: TestServer, receiver: Receiver, accountId: string, domainId: string;
beforeAll(async () => ({ s, receiver, accountId, domainId } = await startEngineBed()));
afterAll(() => stopEngineBed({ s, receiver }));

const LEASE_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const events = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');

async function log(webhookId: string) {
  const res = await s.rest('GET', `/webhooks/${webhookId}/log?limit=100`);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ delivery_id: string | null; type: string; success: boolean; status: number | null }>).filter((a) => a.delivery_id);
}

/** A worker that takes the pending events, then dies: `onEach` is all it does with each delivery. */
async function dieAfterDispatch(onEach: (d: Parameters<typeof attempt>[1]) => Promise<unknown>): Promise<number> {
  return dispatchEvents(s.app.services.orm.em.fork(), {
    lease: () => new Date(Date.now() + LEASE_MS),
    deliver: async (claimed) => {
      for (const d of claimed) await onEach(d);
    },
  });
}

it('delivers a batch whose worker died before posting it, once its lease runs out', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/unposted' });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.clicked', payload: { id: 'c1' } });
  expect(await dieAfterDispatch(async () => undefined)).toBe(1);

  // Leased to the dead worker: another tick neither posts it nor dispatches it again.
  await runTick(s.app.services);
  expect(events('/unposted')).toHaveLength(0);
  expect(await log(hook.id)).toEqual([]);

  await sleep(LEASE_MS + 100);
  await runTick(s.app.services);
  const [request] = events('/unposted');
  expect(events('/unposted')).toHaveLength(1);
  expect(request).toMatchObject({ verified: true, json: { type: 'activity.clicked', data: { id: 'c1' } } });
  const entries = await log(hook.id);
  expect(entries).toEqual([expect.objectContaining({ delivery_id: request.headers['webhook-id'], type: 'activity.clicked', success: true, status: 200 })]);

  // Written and recorded: later ticks post nothing more.
  await sleep(LEASE_MS + 100);
  await runTick(s.app.services);
  expect(events('/unposted')).toHaveLength(1);
});

it('posts again, under the same webhook-id, a delivery whose worker died before recording it', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/unrecorded' });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.opened', payload: { id: 'o1' } });
  // The POST is made and answered, and the outcome dies with the worker.
  await dieAfterDispatch((d) => attempt(s.app.services, d));
  const [first] = events('/unrecorded');
  expect(events('/unrecorded')).toHaveLength(1);
  expect(await log(hook.id)).toEqual([]);

  await sleep(LEASE_MS + 100);
  await runTick(s.app.services);
  const requests = events('/unrecorded');
  expect(requests).toHaveLength(2);
  // At least once: the receiver de-duplicates on webhook-id.
  expect(requests[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
  expect(requests[1].raw).toBe(first.raw);
  expect(await log(hook.id)).toEqual([expect.objectContaining({ delivery_id: first.headers['webhook-id'], success: true, status: 200 })]);
});

it('leaves no lease behind once a tick has delivered and recorded its batches', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.hard_bounced'], path: '/recorded' });
  const failing = await createWebhook(s, receiver, { domainId, events: ['activity.hard_bounced'], path: '/recorded-failing' });
  receiver.respond('/recorded-failing', { status: 500 });
  for (let i = 0; i < 3; i++) await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.hard_bounced', payload: { id: `b${i}` } });
  await runTick(s.app.services);
  expect(events('/recorded')).toHaveLength(3);
  expect(events('/recorded-failing')).toHaveLength(3);
  expect((await log(hook.id)).map((a) => a.success)).toEqual([true, true, true]);
  expect((await log(failing.id)).map((a) => a.status)).toEqual([500, 500, 500]);
  const [{ n }] = await sql<{ n: number }>(s, 'select count(*)::int as n from webhook_dispatch_leases');
  expect(n).toBe(0);
});

it('drops the deliveries of a webhook deleted while its batch was leased, and delivers the others', async () => {
  const gone = await createWebhook(s, receiver, { domainId, events: ['activity.spam_complaint'], path: '/deleted' });
  const kept = await createWebhook(s, receiver, { domainId, events: ['activity.spam_complaint'], path: '/kept' });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.spam_complaint', payload: { id: 'x1' } });
  await dieAfterDispatch(async () => undefined);
  expect((await s.rest('DELETE', `/webhooks/${gone.id}`)).status).toBeLessThan(300);

  await sleep(LEASE_MS + 100);
  await runTick(s.app.services);
  expect(events('/deleted')).toHaveLength(0);
  expect(events('/kept')).toHaveLength(1);
  expect(await log(kept.id)).toEqual([expect.objectContaining({ type: 'activity.spam_complaint', success: true })]);
});

it('records a first attempt that comes back after its lease ran out and the delivery was written again', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.unsubscribed'], path: '/late' });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.unsubscribed', payload: { id: 'u1' } });
  // A slow worker: its POST is made, and its record comes only after the lease has run out.
  const held: Array<Awaited<ReturnType<typeof attempt>>> = [];
  await dieAfterDispatch(async (d) => held.push(await attempt(s.app.services, d)));
  await sleep(LEASE_MS + 100);
  await runTick(s.app.services);
  expect(events('/late')).toHaveLength(2);
  await recordRound(s.app.services, held);

  const entries = await log(hook.id);
  const id = events('/late')[0].headers['webhook-id'];
  expect(entries).toEqual([
    expect.objectContaining({ delivery_id: id, success: true }),
    expect.objectContaining({ delivery_id: id, success: true }),
  ]);
});

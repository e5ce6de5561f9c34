import { seedDomain } from '../support/factories.js';
import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { attempt } from '../../src/engines/webhooks/webhook.delivery.js';
import { dispatchEvents } from '../../src/engines/webhooks/event.dispatch.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { recordRound } from '../../src/engines/webhooks/round.record.js';
import { createWebhook, deliveriesOf, insertEvent, makeDue, sql, startEngineBed, stopEngineBed } from './engine-support.js';

/**
 * A webhook's deliveries go with it, whatever deletes it (the webhook itself, or its domain), and
 * none is written for a webhook deleted while its delivery was in flight. No foreign key does it
 * (the engine writes deliveries without a per-row check): a trigger on webhooks, and the writes'
 * lock on their webhooks. The api role alone, so only this test's ticks run the engine.
 */
let s: TestServer, receiver: Receiver, accountId: string, domainId: string;
beforeAll(async () => ({ s, receiver, accountId, domainId } = await startEngineBed()));
afterAll(() => stopEngineBed({ s, receiver }));

const events = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');

it('deletes a deleted webhook’s deliveries, delivered and pending, and no other webhook’s', async () => {
  const delivered = await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/del-ok' });
  const pending = await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/del-failing' });
  const kept = await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/del-kept' });
  receiver.respond('/del-failing', { status: 503 });
  for (let i = 0; i < 2; i++) await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.opened', payload: { id: `o${i}` } });
  await runTick(s.app.services);
  expect((await deliveriesOf(s, delivered.id)).map((d) => d.state)).toEqual(['delivered', 'delivered']);
  expect((await deliveriesOf(s, pending.id)).map((d) => d.state)).toEqual(['pending', 'pending']);

  expect((await s.rest('DELETE', `/webhooks/${delivered.id}`)).status).toBeLessThan(300);
  expect((await s.rest('DELETE', `/webhooks/${pending.id}`)).status).toBeLessThan(300);
  expect(await deliveriesOf(s, delivered.id)).toEqual([]);
  expect(await deliveriesOf(s, pending.id)).toEqual([]);
  expect((await deliveriesOf(s, kept.id)).map((d) => d.state)).toEqual(['delivered', 'delivered']);
});

it('deletes the deliveries of a deleted domain’s webhooks', async () => {
  const domain = await seedDomain(s);
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent'], path: '/del-domain' });
  await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.sent', payload: { id: 's1' } });
  await runTick(s.app.services);
  expect(await deliveriesOf(s, hook.id)).toHaveLength(1);

  expect((await s.rest('DELETE', `/domains/${domain.id}`)).status).toBeLessThan(300);
  expect(await sql(s, 'select id from webhooks where id = ?', [hook.id])).toEqual([]);
  expect(await deliveriesOf(s, hook.id)).toEqual([]);
});

it('writes nothing for a webhook deleted while its first attempt was in flight, and does not post it again', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.soft_bounced'], path: '/del-inflight' });
  const other = await createWebhook(s, receiver, { domainId, events: ['activity.soft_bounced'], path: '/del-inflight-kept' });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.soft_bounced', payload: { id: 'b1' } });
  // Posted by a worker whose record comes only after the webhook is deleted.
  const held: Array<Awaited<ReturnType<typeof attempt>>> = [];
  await dispatchEvents(s.app.services.orm.em.fork(), {
    lease: () => new Date(Date.now() + 60_000),
    deliver: async (claimed) => {
      for (const d of claimed) held.push(await attempt(s.app.services, d));
    },
  });
  expect(events('/del-inflight')).toHaveLength(1);
  expect((await s.rest('DELETE', `/webhooks/${hook.id}`)).status).toBeLessThan(300);
  await recordRound(s.app.services, held);

  expect(await deliveriesOf(s, hook.id)).toEqual([]);
  expect(await sql(s, 'select id from webhook_attempts where webhook_id = ? and delivery_id is not null', [hook.id])).toEqual([]);
  expect((await deliveriesOf(s, other.id)).map((d) => d.state)).toEqual(['delivered']);
  await runTick(s.app.services);
  expect(events('/del-inflight')).toHaveLength(1);
  expect(events('/del-inflight-kept')).toHaveLength(1);
});

it('deletes a deleted webhook’s log (its attempts, test requests included), and no other webhook’s', async () => {
  const gone = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/del-log' });
  const kept = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/del-log-kept' });
  receiver.respond('/del-log', { status: [500, 200] });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.clicked', payload: { id: 'c1' } });
  await runTick(s.app.services);
  const [retry] = await deliveriesOf(s, gone.id);
  expect(retry).toMatchObject({ state: 'pending', attempts: 1 });
  await makeDue(s, retry.id);
  await runTick(s.app.services);
  expect((await deliveriesOf(s, gone.id)).map((d) => d.state)).toEqual(['delivered']);
  const attempts = (webhookId: string) =>
    sql<{ id: string; delivery_id: string | null; success: boolean }>(s, 'select id, delivery_id, success from webhook_attempts where webhook_id = ? order by attempted_at, id', [webhookId]);
  // The creation's test request, the failed attempt and the one that delivered.
  expect((await attempts(gone.id)).map((a) => [a.delivery_id === null, a.success])).toEqual([
    [true, true],
    [false, false],
    [false, true],
  ]);
  const keptBefore = await attempts(kept.id);
  expect(keptBefore).toHaveLength(2);
  const keptLog = await s.rest('GET', `/webhooks/${kept.id}/log?limit=100`);
  expect(keptLog.status).toBe(200);

  expect((await s.rest('DELETE', `/webhooks/${gone.id}`)).status).toBeLessThan(300);
  expect(await attempts(gone.id)).toEqual([]);
  expect(await attempts(kept.id)).toEqual(keptBefore);
  expect((await s.rest('GET', `/webhooks/${kept.id}/log?limit=100`)).body).toEqual(keptLog.body);
});

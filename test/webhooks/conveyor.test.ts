import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { attemptsOf, createWebhook, deliveriesOf, insertEvent, sql, startEngineBed, stopEngineBed } from './engine-support.js';

/**
 * A round of deliveries none of which could be attempted (the webhook's secret no longer
 * decrypts) leaves nothing to record: the tick still ends, the deliveries wait out their lease,
 * and the next rounds are attempted and recorded as usual. The api role alone, so only this
 * test's ticks run the engine.
 */
let s: TestServer, receiver: Receiver, accountId: string, domainId: string;
beforeAll(async () => ({ s, receiver, accountId, domainId } = await startEngineBed()));
afterAll(() => stopEngineBed({ s, receiver }));

/** One tick, failed if it does not end within 10 s. */
async function tick(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the webhook tick did not end')), 10_000);
  });
  try {
    await Promise.race([runTick(s.app.services), late]);
  } finally {
    clearTimeout(timer);
  }
}

it('ends a tick whose only round could not be attempted, and delivers the next', async () => {
  const broken = await createWebhook(s, receiver, { domainId, events: ['activity.opened'], path: '/broken' });
  const working = await createWebhook(s, receiver, { domainId, events: ['activity.delivered'], path: '/working' });
  await sql(s, `update webhooks set secret_enc = 'not-a-sealed-secret' where id = ?`, [broken.id]);

  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.opened', payload: { id: 'o1' } });
  await tick();
  const [stuck] = await deliveriesOf(s, broken.id);
  expect(stuck).toMatchObject({ state: 'pending', attempts: 0 });
  // Leased, not due: attempted again only once the lease runs out.
  expect(new Date(stuck.next_attempt_at!).getTime()).toBeGreaterThan(Date.now());
  expect(await attemptsOf(s, stuck.id)).toHaveLength(0);
  expect(receiver.received('/broken').filter((r) => r.json?.type !== 'webhook.test')).toHaveLength(0);

  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.delivered', payload: { id: 'd1' } });
  await tick();
  const [done] = await deliveriesOf(s, working.id);
  expect(done).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
  expect(await attemptsOf(s, done.id)).toHaveLength(1);
  expect(receiver.received('/working').filter((r) => r.json?.type === 'activity.delivered')).toHaveLength(1);
});

it('records the last attempts of a tick as each finishes, not once its whole round has', async () => {
  // One event for two webhooks: one round of two deliveries, one of whose receivers is slow.
  const fast = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/fast' });
  const slow = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/slow' });
  receiver.respond('/slow', { status: 200, body: 'ok', delayMs: 2000 });
  await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.clicked', payload: { id: 'c1' } });
  const delivered = async (id: string) => (await deliveriesOf(s, id)).filter((d) => d.state === 'delivered');

  const ticking = tick();
  try {
    // The fast delivery is in the log while the slow receiver still holds its answer.
    const deadline = Date.now() + 1500;
    while (!(await delivered(fast.id)).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await delivered(fast.id)).toHaveLength(1);
    expect(await delivered(slow.id)).toHaveLength(0);
  } finally {
    await ticking;
  }
  expect(await delivered(slow.id)).toHaveLength(1);
});

it('posts a tick of many deliveries past those that end at once, before any request', async () => {
  // More deliveries than WEBHOOK_IN_FLIGHT (50) for each of three webhooks, in one tick: one
  // webhook's secret no longer decrypts (the attempt cannot start), another's URL is refused
  // before any request, the third's receiver answers. The first two end without waiting on
  // anything, so the conveyor's slots come back inside its own loop and on the next turn.
  const broken = await createWebhook(s, receiver, { domainId, events: ['activity.soft_bounced'], path: '/many-broken' });
  const refused = await createWebhook(s, receiver, { domainId, events: ['activity.hard_bounced'], path: '/many-refused' });
  const working = await createWebhook(s, receiver, { domainId, events: ['activity.unsubscribed'], path: '/many-working' });
  await sql(s, `update webhooks set secret_enc = 'not-a-sealed-secret' where id = ?`, [broken.id]);
  await sql(s, `update webhooks set url = 'ftp://refused.example/hook' where id = ?`, [refused.id]);
  const count = 120;
  await sql(
    s,
    `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
     select 'many' || t || lpad(i::text, 4, '0'), ?, ?, 'activity.' || t, json_build_object('id', i), now()
       from unnest(array['soft_bounced', 'hard_bounced', 'unsubscribed']) t, generate_series(1, ${count}) i`,
    [accountId, domainId],
  );
  await tick();

  const delivered = await deliveriesOf(s, working.id);
  expect(delivered).toHaveLength(count);
  expect(delivered.every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
  expect(receiver.received('/many-working').filter((r) => r.json?.type === 'activity.unsubscribed')).toHaveLength(count);
  // Refused before any request: each tried once, a permanent failure.
  const failed = await deliveriesOf(s, refused.id);
  expect(failed).toHaveLength(count);
  expect(failed.every((d) => d.state === 'failed' && d.attempts === 1)).toBe(true);
  // Never started: written pending, leased, untried.
  const stuck = await deliveriesOf(s, broken.id);
  expect(stuck).toHaveLength(count);
  expect(stuck.every((d) => d.state === 'pending' && d.attempts === 0)).toBe(true);
  expect(receiver.received('/many-broken').filter((r) => r.json?.type !== 'webhook.test')).toHaveLength(0);
});

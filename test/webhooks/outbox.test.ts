import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { DISPATCH_BATCH, dispatchEvents } from '../../src/engines/webhooks/event.dispatch.js';
import { DISPATCH_SETTINGS, TAKE_EVENTS, TAKE_EVENTS_AFTER } from '../../src/engines/webhooks/dispatch.repository.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { createWebhook, deliveriesOf, insertEvent, sql, startEngineBed, stopEngineBed } from './engine-support.js';

/**
 * domain_events is an outbox: a tick deletes every event it takes, in the transaction that writes
 * what it owes (its deliveries), whether or not any webhook wanted it, so what the table holds is
 * the backlog. The api role alone, so only this test's ticks run the engine and the table can be
 * read without racing a worker.
 */
let s: TestServer, receiver: Receiver, accountId: string, domainId: string;
beforeAll(async () => ({ s, receiver, accountId, domainId } = await startEngineBed()));
afterAll(() => stopEngineBed({ s, receiver }));

const waiting = async () => (await sql<{ id: string }>(s, 'select id from domain_events order by created_at, id')).map((r) => r.id);
const events = (path: string) => receiver.received(path).filter((r) => r.json?.type !== 'webhook.test');

it('a tick deletes the events it dispatches, those no webhook subscribes to too, and leaves no backlog', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.clicked'], path: '/outbox' });
  const ids = [
    await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.clicked', payload: { n: 'subscribed' } }),
    // Nobody subscribes to these: a type no webhook takes, a domain without webhooks, a platform-wide one.
    await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.opened', payload: { n: 'other type' } }),
    await insertEvent(s, { account_id: accountId, domain_id: 'no-such-domain', type: 'activity.clicked', payload: { n: 'other domain' } }),
    await insertEvent(s, { account_id: null, domain_id: null, type: 'maintenance.start', payload: { maintenance_id: 'm1' } }),
  ];
  expect((await waiting()).sort()).toEqual([...ids].sort());

  expect((await runTick(s.app.services)).dispatched).toBe(4);
  expect(await waiting()).toEqual([]);
  expect(events('/outbox').map((r) => r.json.data)).toEqual([{ n: 'subscribed' }]);
  const [delivery] = await deliveriesOf(s, hook.id);
  expect(delivery).toMatchObject({ event_id: ids[0], state: 'delivered' });

  // Nothing is left to take: a second tick dispatches nothing and posts nothing again.
  expect((await runTick(s.app.services)).dispatched).toBe(0);
  expect(events('/outbox')).toHaveLength(1);
  expect(await deliveriesOf(s, hook.id)).toHaveLength(1);
});

it('one tick empties a backlog of several batches', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.sent'], path: '/outbox-backlog' });
  const count = DISPATCH_BATCH * 2 + 7;
  await sql(
    s,
    `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
     select 'backlog' || lpad(i::text, 5, '0'), ?, ?, case when i % 2 = 0 then 'activity.sent' else 'activity.delivered' end,
            jsonb_build_object('i', i), now() + i * interval '1 millisecond'
       from generate_series(1, ?) i`,
    [accountId, domainId, count],
  );
  expect(await waiting()).toHaveLength(count);

  expect((await runTick(s.app.services)).dispatched).toBe(count);
  expect(await waiting()).toEqual([]);
  // Half of them were of the subscribed type; the rest are gone all the same.
  const sent = Math.floor(count / 2);
  expect(await deliveriesOf(s, hook.id)).toHaveLength(sent);
  expect(events('/outbox-backlog')).toHaveLength(sent);
});

it('takes events by the queue index in order and deletes them by ctid, whatever the statistics say', async () => {
  // The plan a dispatch transaction gets for its takes (from the start, and after a point of the
  // queue): with a handful of events analyzed (the plan a small table suggests, which a generic
  // plan would keep) and with a backlog not yet analyzed.
  const plan = async (take: string) => {
    const pool = await s.app.services.orm.em.getConnection().getNativeClient();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(DISPATCH_SETTINGS);
      const text = take.replace('$1', '200').replace('$2', "'2026-01-01T00:00:00.000000Z'").replace('$3', "'a'");
      const { rows } = await client.query(`explain ${text}`);
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('rollback');
      client.release();
    }
  };
  for (let i = 0; i < 3; i++) await insertEvent(s, { account_id: accountId, domain_id: domainId, type: 'activity.opened' });
  await sql(s, 'analyze domain_events');
  const small = [await plan(TAKE_EVENTS), await plan(TAKE_EVENTS_AFTER)];
  await sql(
    s,
    `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
     select 'plan' || i, ?, ?, 'activity.opened', '{}', now() from generate_series(1, 5000) i`,
    [accountId, domainId],
  );
  const large = [await plan(TAKE_EVENTS), await plan(TAKE_EVENTS_AFTER)];
  for (const p of [...small, ...large]) {
    expect(p).toContain('Index Scan using domain_events_queue_index');
    expect(p).toContain('Tid Scan on domain_events');
    // Only the batch taken is sorted (for its order in the answer), never the table.
    expect(p).not.toMatch(/Seq Scan|Bitmap|Sort Key: domain_events/);
  }
  // After a point, the scan starts there: the point bounds the index scan, it is not a filter.
  for (const p of [small[1], large[1]]) expect(p).toMatch(/Index Cond: \(ROW\(created_at, \(id\)::text\) > ROW\(/);
  await sql(s, 'delete from domain_events');
});

it('takes after the last event taken, yet leaves no event behind that a later take passed over', async () => {
  const hook = await createWebhook(s, receiver, { domainId, events: ['activity.soft_bounced'], path: '/outbox-passed' });
  // One transaction's events share their time: the point is the time and the id.
  const count = DISPATCH_BATCH * 3 + 5;
  await sql(
    s,
    `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
     select 'passed' || lpad(i::text, 5, '0'), ?, ?, 'activity.soft_bounced', jsonb_build_object('i', i), now()
       from generate_series(1, ?) i`,
    [accountId, domainId, count],
  );
  // The first event is held by another transaction while the first batches are taken (skip
  // locked passes over it), and let go once the first batch is handed off: the takes after that
  // start past it, so only a take from the start finds it.
  const pool = await s.app.services.orm.em.getConnection().getNativeClient();
  const holder = await pool.connect();
  await holder.query('begin');
  await holder.query(`select id from domain_events where id = 'passed00001' for update`);
  let held = true;
  const handed: string[] = [];
  try {
    const taken = await dispatchEvents(s.app.services.orm.em.fork(), {
      lease: () => new Date(Date.now() + 60_000),
      deliver: async (claimed) => {
        handed.push(...claimed.map((d) => d.event_id));
        if (held) {
          held = false;
          await holder.query('commit');
        }
      },
    });
    expect(taken).toBe(count);
  } finally {
    if (held) await holder.query('rollback');
    holder.release();
  }
  expect(await waiting()).toEqual([]);
  // Every event handed off once, the one held too.
  expect(handed).toHaveLength(count);
  expect(new Set(handed).size).toBe(count);
  expect(handed).toContain('passed00001');
  await sql(s, 'delete from webhook_dispatch_leases');
  await sql(s, 'delete from webhooks where id = ?', [hook.id]);
});

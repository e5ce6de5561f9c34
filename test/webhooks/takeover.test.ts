import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { WorkerProcesses } from '../support/worker-process.js';
import { createWebhook, deliveriesOf, insertEvent } from './engine-support.js';

/**
 * A killed worker's webhook deliveries (fresh from its dispatch, waiting their turn or in flight)
 * are posted by another worker within seconds: the conveyor renews their leases while it holds
 * them (WORKER_LEASE_SECONDS, every third of it), so once it is gone they are due again within a
 * lease, for any worker's next tick (engines/webhooks/webhook.delivery.ts).
 */
let s: TestServer;
let receiver: Receiver;
let workers: WorkerProcesses;
const EVENTS = 10;

beforeAll(async () => {
  s = await startTestServer({ roles: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  // One request at a time to a slow receiver: the kill lands with most deliveries still waiting.
  workers = new WorkerProcesses(s, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_IN_FLIGHT: '1', MAIL_TRANSPORT: 'capture' });
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await receiver?.close();
  await s?.close();
});

it("posts a killed worker's webhook deliveries within 30 s of the kill", async () => {
  const accountId = await accountIdOf(s);
  const domain = await seedDomain(s);
  const hook = await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.delivered'], path: '/slow' });
  receiver.respond('/slow', { status: 200, delayMs: 1500 });
  for (let i = 0; i < EVENTS; i++) {
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.delivered', payload: { id: `e${i}` } });
  }
  const posted = () => new Set(receiver.received('/slow').filter((r) => r.json?.type === 'activity.delivered').map((r) => String(r.headers['webhook-id'])));

  const first = workers.start();
  await receiver.waitFor(() => posted().size >= 2, 30_000);
  await workers.kill(first);
  const killedAt = Date.now();
  expect(posted().size).toBeLessThan(EVENTS);

  // What is measured is the takeover, not the slow receiver's queue.
  receiver.respond('/slow', { status: 200 });
  workers.start({ WEBHOOK_IN_FLIGHT: '16' });
  await receiver.waitFor(() => posted().size >= EVENTS, 60_000);
  expect(Date.now() - killedAt).toBeLessThan(30_000);
  // Every delivery dispatched is posted (a request the kill cut short is posted again, same id).
  const rows = await deliveriesOf(s, hook.id);
  expect(new Set(rows.map((r) => r.id))).toEqual(posted());
}, 150_000);

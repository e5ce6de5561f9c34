import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { WorkerProcesses } from '../support/worker-process.js';
import { acceptBacklog, holdMidBatch, sql, until } from './helpers.js';

/**
 * An accepted message is never lost and never sent twice, even when the worker is killed in the
 * middle of a batch. The worker runs as its own process (dist/src/main.worker.js, built by
 * `npm test`) so that it can be SIGKILLed; the sink holds each message before its 250 so that
 * the kill lands while a message is in flight (a message whose client died before the 250 was
 * never accepted, as with a real MTA).
 */
let s: TestServer;
let sink: SmtpSink;
let workers: WorkerProcesses;

const TOTAL = 24;
/** A dead worker's batch is taken over once its lease (5 s) ran out; a deferral retries 1 s later (settings on both sides: queues carry them). */
const RECOVERY = { WORKER_LEASE_SECONDS: '5', DELIVERY_RETRY_DELAY_SECONDS: '1' };

beforeAll(async () => {
  sink = await startSmtpSink({ holdMs: 150 });
  // The API only: the workers are the separate processes below.
  s = await startTestServer({ roles: ['api'], env: RECOVERY });
  workers = new WorkerProcesses(s, {
    MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
    ...RECOVERY,
    // One message in flight, so that the kill lands while the sink holds it (before its 250).
    // With several in flight, another may be between the sink's 250 and the worker's commit:
    // the SMTP duplicate window no sender can close (docs/api-behaviour.md), not what this
    // test is about.
    DELIVERY_CONCURRENCY: '1',
  });
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await s?.close();
  await sink?.close();
});

it('delivers every accepted message exactly once across a worker killed mid-batch', async () => {
  const domain = await seedDomain(s, { dkim: true });
  const ids = await acceptBacklog(s, domain, TOTAL, 'n');

  const first = workers.start();
  // Kill it while it holds a message in flight, after some were delivered. The hold then grows
  // long, so that the kill surely lands before that message's 250 even on a loaded machine (with
  // the short hold, a slow kill could land after the 250 and before the record: the SMTP window,
  // a duplicate this test is not about).
  await holdMidBatch(sink, () => sink.received.length, 4, 10_000, () => sink.received.length < TOTAL);
  await workers.kill(first);
  sink.holdMs = 150;
  const deliveredBeforeKill = sink.received.length;
  expect(deliveredBeforeKill).toBeLessThan(TOTAL);

  workers.start();
  await until(async () => sink.received.length >= TOTAL, 90_000, 'every message at the sink');
  // Give a duplicate, if there were one, the time to arrive.
  await new Promise((r) => setTimeout(r, 2000));

  const messageIds = sink.received.map((m) => /^Message-ID:\s*(<[^>]+>)/im.exec(m.raw.replace(/\r?\n[ \t]+/g, ' '))![1]);
  expect(new Set(messageIds).size).toBe(messageIds.length);
  expect(messageIds).toHaveLength(TOTAL);
  const rows = await sql<{ smtp_message_id: string; status: string }>(
    s,
    `select e.smtp_message_id, e.status from emails e where e.message_id = any(?)`,
    [`{${ids.join(',')}}`],
  );
  expect(rows.map((r) => r.status)).toEqual(Array(TOTAL).fill('delivered'));
  expect(rows.map((r) => r.smtp_message_id).sort()).toEqual([...messageIds].sort());
}, 150_000);

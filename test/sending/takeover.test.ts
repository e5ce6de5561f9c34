import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { WorkerProcesses } from '../support/worker-process.js';
import { acceptBacklog, holdMidBatch, sql, until } from './helpers.js';

/**
 * A killed worker's emails are taken over by another worker within seconds, with the settings'
 * defaults: the batch's lease row runs out after WORKER_LEASE_SECONDS and the other worker
 * delivers its messages at once, without counting the killed attempt, and settles the dead
 * worker's jobs (engines/delivery/delivery.engine.ts, delivery.loop.ts).
 */
let s: TestServer;
let sink: SmtpSink;
let workers: WorkerProcesses;
const TOTAL = 12;

beforeAll(async () => {
  sink = await startSmtpSink({ holdMs: 150 });
  s = await startTestServer({ roles: ['api'] });
  // One email in flight, so the kill lands while the sink holds it, before its 250.
  workers = new WorkerProcesses(s, { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, DELIVERY_CONCURRENCY: '1' });
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await s?.close();
  await sink?.close();
});

it("delivers a killed worker's emails within 30 s of the kill, once each, without counting the killed attempt", async () => {
  const domain = await seedDomain(s, { dkim: true });
  const ids = await acceptBacklog(s, domain, TOTAL, 't');

  // One worker takes the whole backlog in one batch (DELIVERY_BATCH_SIZE 50) and dies in it.
  const first = workers.start();
  await holdMidBatch(sink, () => sink.received.length, 3, 20_000);
  await workers.kill(first);
  const killedAt = Date.now();
  sink.holdMs = 150;
  expect(sink.received.length).toBeLessThan(TOTAL);

  // A worker started after the death takes the batch over.
  workers.start();
  await until(async () => sink.received.length >= TOTAL, 60_000, 'every message at the sink');
  expect(Date.now() - killedAt).toBeLessThan(30_000);
  await new Promise((r) => setTimeout(r, 1000));

  const messageIds = sink.received.map((m) => /^Message-ID:\s*(<[^>]+>)/im.exec(m.raw.replace(/\r?\n[ \t]+/g, ' '))![1]);
  expect(new Set(messageIds).size).toBe(TOTAL);
  expect(messageIds).toHaveLength(TOTAL);
  const rows = await sql<{ status: string; attempts: number }>(s, 'select status, attempts from emails where message_id = any(?)', [`{${ids.join(',')}}`]);
  expect(rows.map((r) => r.status)).toEqual(Array(TOTAL).fill('delivered'));
  // The attempt the kill cut short left no trace: one attempt each.
  expect(rows.map((r) => r.attempts)).toEqual(Array(TOTAL).fill(1));
  // The taker settled the dead worker's jobs too: none waits for pg-boss's expiry or a retry.
  const jobs = await until(async () => {
    const rows = await sql<{ state: string; retry_count: number }>(s, `select state, retry_count from pgboss.job where name = 'email.deliver' and data->>'message_id' = any(?)`, [`{${ids.join(',')}}`]);
    return rows.every((r) => r.state === 'completed') && rows;
  }, 5000, "the dead worker's jobs completed");
  expect(jobs).toEqual(Array(TOTAL).fill({ state: 'completed', retry_count: 0 }));
  const [{ n }] = await sql<{ n: number }>(s, 'select count(*)::int as n from delivery_leases');
  expect(n).toBe(0);
}, 150_000);

it('sends nothing more of a batch taken over from a worker that froze past its lease, once it runs again', async () => {
  await workers.close();
  workers = new WorkerProcesses(s, { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, DELIVERY_CONCURRENCY: '1' });
  const domain = await seedDomain(s, { dkim: true });
  const from = sink.received.length;
  await acceptBacklog(s, domain, TOTAL, 'f');
  const copies = () => sink.received.slice(from).map((m) => /^Subject: (f\d+)/m.exec(m.raw)?.[1]).filter(Boolean);

  const frozen = workers.start();
  await holdMidBatch(sink, () => copies().length, 3, 3000);
  // Frozen, not dead: its process, sockets and batch stay, it only stops running.
  frozen.kill('SIGSTOP');
  sink.holdMs = 150;
  workers.start();
  await until(async () => new Set(copies()).size >= TOTAL, 60_000, 'every message at the sink');

  // It runs again: the email it had handed over before it froze may complete (the SMTP window),
  // but it checks its lease before each next one and finds the batch taken over.
  frozen.kill('SIGCONT');
  await new Promise((r) => setTimeout(r, 8000));
  expect(new Set(copies()).size).toBe(TOTAL);
  expect(copies().length).toBeLessThanOrEqual(TOTAL + 1);
}, 150_000);

import { startApp, type RunningApp } from '../../src/app.js';
import { OUTBOX_RELAY_NAME } from '../../src/jobs/outbox.js';
import { seedDomain } from '../support/factories.js';
import { sameInstallEnv, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { deliveryJobs, sql, until } from './helpers.js';

/**
 * A send's delivery job is written to the job outbox in the statement that accepts the send, and
 * the relay of each worker process moves it into pg-boss through pg-boss's public API
 * (jobs/outbox.ts). Sends are accepted here by an api-only server; workers are other processes of
 * the same install, started by the tests. Their safety poll is set out of reach, so what moves a
 * job is the relay starting, or a send's NOTIFY.
 */
let s: TestServer;
let sink: SmtpSink;
let domain: { id: string; name: string };
const workers: RunningApp[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ roles: ['api'] });
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  for (const w of workers) await w.close();
  await s?.close();
  await sink?.close();
});

async function startWorker(): Promise<RunningApp> {
  const env = sameInstallEnv(s, {
    DNS_SERVERS: s.dns.server,
    MX_ALLOW_PRIVATE: 'true',
    MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
    JOB_OUTBOX_POLL_SECONDS: '3600',
  });
  const app = await startApp({ roles: ['worker'], env });
  workers.push(app);
  return app;
}

async function send(subject: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await s.rest('POST', '/email', {
    body: { from: { email: `ob@${domain.name}` }, to: [{ email: `${subject}@example.net` }], subject, text: 'T', ...extra },
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-message-id')!;
}

const subjectsAtSink = () => sink.received.map((m) => /^Subject: (.*)$/im.exec(m.raw)?.[1].trim());
const waiting = async () => (await sql<{ n: number }>(s, 'select count(*)::int as n from job_outbox'))[0].n;

it('moves the jobs of sends accepted while no worker ran once one starts: delivered, a scheduled one kept for its time', async () => {
  const tag = `early${Date.now()}`;
  const now = await send(`${tag}-now`);
  const at = Math.floor(Date.now() / 1000) + 3600;
  const later = await send(`${tag}-later`, { send_at: at });
  expect(await waiting()).toBe(2);
  expect(await deliveryJobs(s, [now, later])).toBe(2);

  const worker = await startWorker();
  await until(async () => subjectsAtSink().includes(`${tag}-now`), 30_000, 'the send accepted before the worker to be delivered');
  await until(async () => (await waiting()) === 0, 10_000, 'the outbox to be empty');
  // The scheduled job is the one pg-boss's own send makes for that time, its defaults from the queue.
  const twin = await worker.services.boss.send('email.deliver', { message_id: 'twin' }, { startAfter: new Date(at * 1000) });
  const cols = `name, priority, state, retry_limit, retry_delay, retry_backoff, retry_delay_max, expire_seconds, deletion_seconds,
    keep_until - start_after as kept, policy, dead_letter, heartbeat_seconds, singleton_key, singleton_on, group_id, blocked, blocking, start_after`;
  const [ours] = await sql(s, `select ${cols} from pgboss.job where name = 'email.deliver' and data->>'message_id' = ?`, [later]);
  const [theirs] = await sql(s, `select ${cols} from pgboss.job where id = ?`, [twin]);
  expect(ours).toEqual(theirs);
  expect(new Date(ours.start_after).getTime()).toBe(at * 1000);
  await sql(s, 'delete from pgboss.job where id = ?', [twin]);
  expect(await deliveryJobs(s, [now, later])).toBe(2);
  expect(subjectsAtSink()).not.toContain(`${tag}-later`);
  await worker.close();
}, 90_000);

it('two relays move each job once: every send, accepted before and while they run, delivered once', async () => {
  const tag = `pair${Date.now()}`;
  const subjects = Array.from({ length: 60 }, (_, i) => `${tag}-${i}`);
  // Half wait in the outbox, for both relays to race for when they start; half come while they run.
  const ids = await Promise.all(subjects.slice(0, 30).map((subject) => send(subject)));
  await Promise.all([startWorker(), startWorker()]);
  ids.push(...(await Promise.all(subjects.slice(30).map((subject) => send(subject)))));
  const mine = () => subjectsAtSink().filter((x) => x?.startsWith(`${tag}-`));
  await until(async () => mine().length >= subjects.length, 60_000, 'every send to be delivered');
  // Time for a second copy of a job, were there one, to be delivered too.
  await new Promise((r) => setTimeout(r, 2000));
  expect(mine().sort()).toEqual([...subjects].sort());
  expect(await deliveryJobs(s, ids)).toBe(subjects.length);
  expect(await waiting()).toBe(0);
  for (const w of workers.splice(0)) await w.close();
}, 120_000);

it('listens again when its connection is lost, and moves what was written meanwhile', async () => {
  await startWorker();
  const relayPids = async () =>
    (await sql<{ pid: number }>(s, 'select pid from pg_stat_activity where application_name = ? and datname = current_database()', [OUTBOX_RELAY_NAME])).map((r) => r.pid);
  const cut = await relayPids();
  expect(cut.length).toBeGreaterThan(0);
  await sql(s, 'select pg_terminate_backend(pid) from pg_stat_activity where pid in (?)', [cut]);
  const tag = `cut${Date.now()}`;
  // Accepted while the relay may still be away: its NOTIFY may go unheard, the move on reconnection takes it.
  await send(`${tag}-during`);
  await until(async () => (await relayPids()).some((pid) => !cut.includes(pid)), 15_000, 'the relay to connect again');
  await send(`${tag}-after`);
  await until(async () => [`${tag}-during`, `${tag}-after`].every((x) => subjectsAtSink().includes(x)), 30_000, 'both sends to be delivered');
}, 90_000);

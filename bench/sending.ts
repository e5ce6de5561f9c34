/**
 * What accepting and delivering a send costs, every figure from one run on a throwaway embedded
 * PostgreSQL, loaded with autocannon from this process:
 *   baseline   POST /send on a bare fastify route, its own pg Pool to the same database, doing the
 *              writes acceptSend does (message, recipient upsert, email, `queued` activity with its
 *              daily rollup, pg-boss job) in one transaction, without auth, validation, ORM or GraphQL
 *   no rollup  the same without the activity_stats upsert (every send of a domain updates one row)
 *   rest       POST /v1/email            (api role only: no worker competes for the CPU)
 *   graphql    POST /graphql send_email  (the same send)
 * then, with roles api + worker and MAIL_TRANSPORT pointing at a local SMTP sink: N sends accepted
 * as fast as possible, timed until the sink holds all N: once with DELIVERY_CONCURRENCY=1 (one
 * message in flight) and once with the default.
 * Every send has one recipient (a new address each time, as real traffic has), subject, html, text.
 * Usage: npm run bench:sending [-- seconds [messages]]   (default 8 s per scenario, 2000 messages)
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { startApp, type RunningApp } from '../src/app.js';
import { newId } from '../src/lib/ids.js';
import { startSmtpSink } from '../test/support/smtp-sink.js';
import { NO_API_LIMITS } from './limits.js';

const seconds = Number(process.argv[2] ?? 8);
const messages = Number(process.argv[3] ?? 2000);
// The figure: 50 connections at once.
const connections = 50;
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-send-'));
const pgPort = 5497;
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const env = (extra: Record<string, string> = {}) => ({
  DATA_DIR: dir,
  EMBEDDED_PG_PORT: String(pgPort),
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  ADMIN_TOKEN: token,
  // DNS is offline here: the domain is marked verified by hand below, as DNS would (no sandbox:
  // the delivery runs send to a real SMTP sink).
  DOMAIN_REQUIRE_DNS: 'false',
  DOMAIN_VERIFICATION: 'dns',
  ...NO_API_LIMITS,
  ...extra,
});

// autocannon replaces [<id>] with a fresh id in every request.
const content = (from: string) => ({
  from: { email: from, name: 'Bench' },
  to: [{ email: 'r[<id>]@example.net', name: 'Reader' }],
  subject: 'Your receipt',
  html: '<p>Hello, here is <a href="https://example.com/r">your receipt</a>.</p>',
  text: 'Hello, here is your receipt: https://example.com/r',
});
const SEND_EMAIL = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $subject: String, $html: String, $text: String) {
  send_email(from: $from, to: $to, subject: $subject, html: $html, text: $text) { message_id } }`;

/**
 * CPU milliseconds spent so far by this process (service, load generator and sink) and by the
 * PostgreSQL cluster (postmaster, its live backends, and the backends it has reaped). Other jobs
 * may share the machine: CPU time per request is the figure they disturb least.
 */
function cpuMs() {
  const postmaster = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after "(comm)": state ppid ... utime(14) stime(15) cutime(16) cstime(17), 100 ticks/s.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    if (Number(pid) === postmaster) ticks += f[11] + f[12] + f[13] + f[14];
    else if (f[1] === postmaster) ticks += f[11] + f[12];
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1000, pg: ticks * 10 };
}
const cpuPer = (from: ReturnType<typeof cpuMs>, n: number) => {
  const now = cpuMs();
  return { node: (now.node - from.node) / n, pg: (now.pg - from.pg) / n };
};

/** Peak resident memory of this process (service, autocannon, sink) while `run` runs, in MB. */
async function peakRss<T>(run: () => Promise<T>): Promise<[T, number]> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  try {
    return [await run(), Math.round(peak / 1024 / 1024)];
  } finally {
    clearInterval(timer);
  }
}

async function load(name: string, url: string, body: string, expect: number, opts: Partial<autocannon.Options> = {}) {
  const cpu = cpuMs();
  const [r, rssMb] = await peakRss(() => autocannon({ url, method: 'POST', headers: auth, body, idReplacement: true, connections, duration: seconds, ...opts }));
  const wrong = r.statusCodeStats ? Object.entries(r.statusCodeStats).filter(([code]) => Number(code) !== expect) : [];
  if (wrong.length || r.errors || r.non2xx) throw new Error(`${name}: unexpected answers ${JSON.stringify(wrong)} errors=${r.errors}`);
  // autocannon returns with requests still in flight: let them finish before anything closes.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99, total: r.requests.total, cpu: cpuPer(cpu, r.requests.total), rssMb };
}

async function call(app: RunningApp, method: string, p: string, body?: unknown) {
  const res = await fetch(`${app.url}${p}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A verified sending domain with real DKIM keys, created through /v1 like a customer would. */
async function verifiedDomain(app: RunningApp, name: string) {
  const res = await call(app, 'POST', '/v1/domains', { name });
  if (res.status !== 201) throw new Error(`create domain: ${res.status} ${JSON.stringify(res.body)}`);
  await app.services.orm.em.fork().getConnection().execute('update domains set is_verified = true, trusted = false where id = ?', [res.body.data.id]);
  return res.body.data as { id: string; name: string };
}

/** The writes of acceptSend/writeMessage and recordActivities, replayed with plain SQL. */
async function startBareRoute(dbUrl: string, app: RunningApp, accountId: string, domainId: string, rollup: boolean) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 10 });
  const server = Fastify();
  server.post('/send', async (req, reply) => {
    const b = req.body as ReturnType<typeof content>;
    const now = new Date();
    const to = b.to[0];
    const messageId = newId(24);
    const emailId = newId();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, from_name, cc, bcc, subject, text, html,
           tags, personalization, settings, headers, "references", status)
         values ($1, $2, $2, $3, $4, $5, $6, '[]', '[]', $7, $8, $9, '{}', '{}', '{}', '[]', '[]', 'queued')`,
        [messageId, now, accountId, domainId, b.from.email, b.from.name, b.subject, b.text, b.html],
      );
      const { rows } = await client.query<{ id: string }>(
        `insert into recipients (id, created_at, updated_at, account_id, domain_id, email) values ($1, $2, $2, $3, $4, $5)
         on conflict (domain_id, email) do update set deleted_at = null, updated_at = excluded.updated_at returning id`,
        [newId(), now, accountId, domainId, to.email],
      );
      await client.query(
        `insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, position, to_email, to_name, subject, tags, status)
         values ($1, $2, $2, $3, $4, $5, $6, 0, $7, $8, $9, '{}', 'queued')`,
        [emailId, now, accountId, domainId, messageId, rows[0].id, to.email, to.name, b.subject],
      );
      // As acceptSend: the job first, then the activity and its (sharded) daily count.
      await app.services.boss.send('email.deliver', { message_id: messageId }, { db: { executeSql: (text, values) => client.query(text, values) } });
      const activity = `insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data)
         values ($1, $2, $2, $3, $4, $5, 'queued', '{}')`;
      await client.query(
        rollup
          ? `with acts as (${activity})
             insert into activity_stats (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard, count)
             values ($3, $2::date, $4, 'queued', '{}', '', '', '', abs(hashtext($5)) % 8, 1)
             on conflict (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard)
               do update set count = activity_stats.count + excluded.count`
          : activity,
        [newId(), now, accountId, domainId, emailId],
      );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    reply.code(202).header('x-message-id', messageId).type('text/plain; charset=utf-8').send('');
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/send`, close: async () => (await server.close(), await pool.end()) };
}

/** Busy share of all cores since `from` (os.cpus() tick counters): the database's work included. */
const cpuTicks = () => os.cpus().reduce((t, c) => ({ busy: t.busy + c.times.user + c.times.nice + c.times.sys + c.times.irq, all: t.all + c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle }), { busy: 0, all: 0 });
const busySince = (from: ReturnType<typeof cpuTicks>) => {
  const now = cpuTicks();
  return Math.round((100 * (now.busy - from.busy)) / (now.all - from.all));
};

/** Accepts `messages` sends as fast as the connections go, then waits for the sink to hold them all. */
async function deliveryRun(app: RunningApp, from: string, sink: Awaited<ReturnType<typeof startSmtpSink>>, label: string) {
  const [run, rssMb] = await peakRss(() => deliverAll(app, from, sink, label));
  return { ...run, rssMb };
}

async function deliverAll(app: RunningApp, from: string, sink: Awaited<ReturnType<typeof startSmtpSink>>, label: string) {
  const start = sink.received.length;
  const t0 = performance.now();
  await load(`accept ${label}`, `${app.url}/v1/email`, JSON.stringify(content(from)), 202, { duration: 600, amount: messages });
  const accepted = performance.now();
  const atAccepted = sink.received.length - start;
  const cpu = cpuTicks();
  const own = cpuMs();
  const deadline = Date.now() + 600_000;
  while (sink.received.length - start < messages) {
    if (Date.now() > deadline) throw new Error(`${label}: ${sink.received.length - start}/${messages} delivered after 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const done = performance.now();
  const perMessage = cpuPer(own, messages - atAccepted);
  return {
    label,
    acceptS: (accepted - t0) / 1000,
    totalS: (done - t0) / 1000,
    perS: Math.round((messages * 1000) / (done - t0)),
    drainPerS: Math.round(((messages - atAccepted) * 1000) / (done - accepted)),
    atAccepted,
    drainCpu: busySince(cpu),
    perMessage,
  };
}

const dbUrl = () => `postgres://postgres:${readFileSync(path.join(dir, 'pg.password'), 'utf8').trim()}@127.0.0.1:${pgPort}/postgres`;
let app = await startApp({ roles: ['api'], env: env() });
let sink: Awaited<ReturnType<typeof startSmtpSink>> | null = null;
const cleanup: (() => Promise<unknown>)[] = [];
try {
  const domain = await verifiedDomain(app, 'bench-sending.example.com');
  const from = `receipts@${domain.name}`;
  const accountId = (await call(app, 'POST', '/graphql', { query: '{ whoami { account_id } }' })).body.data.whoami.account_id as string;
  const bare = await startBareRoute(dbUrl(), app, accountId, domain.id, true);
  const bareNoRollup = await startBareRoute(dbUrl(), app, accountId, domain.id, false);
  cleanup.push(bare.close, bareNoRollup.close);
  const restBody = JSON.stringify(content(from));
  const gqlBody = JSON.stringify({ query: SEND_EMAIL, variables: content(from) });

  // The scenarios must really send: one of each, checked, before loading.
  const one = await call(app, 'POST', '/v1/email', JSON.parse(restBody.replace('[<id>]', 'check')));
  if (one.status !== 202 || !one.headers.get('x-message-id')) throw new Error(`POST /v1/email: ${one.status} ${JSON.stringify(one.body)}`);
  const gql = await call(app, 'POST', '/graphql', JSON.parse(gqlBody.replace('[<id>]', 'check2')));
  if (!gql.body?.data?.send_email?.message_id) throw new Error(`send_email: ${JSON.stringify(gql.body)}`);

  await load('warm-up', `${app.url}/v1/email`, restBody, 202, { duration: 2 });
  await load('warm-up', bare.url, restBody, 202, { duration: 2 });
  const rows = [
    await load('baseline: bare fastify route, same writes in one transaction', bare.url, restBody, 202),
    await load('bare route without the activity_stats rollup upsert', bareNoRollup.url, restBody, 202),
    await load('POST /v1/email', `${app.url}/v1/email`, restBody, 202),
    await load('POST /graphql `send_email`', `${app.url}/graphql`, gqlBody, 200),
  ];
  const em = app.services.orm.em.fork();
  const [{ n }] = await em.getConnection().execute<{ n: string }[]>('select count(*) as n from messages');
  const sent = rows.reduce((t, r) => t + r.total, 0);
  if (Number(n) < sent) throw new Error(`only ${n} messages stored for ${sent} accepted sends`);
  // The next phase runs a worker: the jobs queued above must not be delivered in its figures.
  await app.services.boss.deleteAllJobs('email.deliver');
  const [left] = await em.getConnection().execute<{ n: string }[]>(`select count(*) as n from pgboss.job where name = 'email.deliver'`);
  if (Number(left.n)) throw new Error(`${left.n} delivery jobs left from the acceptance scenarios`);
  await Promise.all(cleanup.splice(0).map((c) => c()));
  await app.close();

  sink = await startSmtpSink();
  // One message in flight per worker process, then the shipped setting.
  const deliveries = [];
  for (const concurrency of ['1', undefined]) {
    app = await startApp({ roles: ['api', 'worker'], env: env({ MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, ...(concurrency ? { DELIVERY_CONCURRENCY: concurrency } : {}) }) });
    const inEffect = (app.services.config as { DELIVERY_CONCURRENCY?: number }).DELIVERY_CONCURRENCY ?? 1;
    deliveries.push(await deliveryRun(app, from, sink, `DELIVERY_CONCURRENCY=${inEffect}${concurrency ? '' : ' (default)'}`));
    if (!concurrency) break;
    await app.close();
  }
  if (!sink.received[0].raw.includes('DKIM-Signature:')) throw new Error('delivered mail is not DKIM-signed');

  const base = rows[0].rps;
  console.log(`\n${seconds}s per scenario, ${connections} connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}); api role only`);
  console.log('| scenario | req/s | p99 ms | vs baseline | CPU ms/req node (incl. autocannon) | CPU ms/req postgres | peak RSS MB |\n|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${(r.rps / base).toFixed(2)} | ${r.cpu.node.toFixed(2)} | ${r.cpu.pg.toFixed(2)} | ${r.rssMb} |`);
  }
  console.log(`GraphQL/REST ratio: ${(rows[3].rps / rows[2].rps).toFixed(2)}`);
  console.log(`\naccepted-to-delivered, ${messages} messages, api + worker, smtp sink on 127.0.0.1, DKIM-signed`);
  console.log('| delivery workers per process | accepting took s | delivered by then | all delivered after s | messages/s (first accept to last delivery) | drain messages/s after accepting | machine CPU busy while draining | CPU ms/message draining: node (incl. sink) / postgres | peak RSS MB |\n|---|---|---|---|---|---|---|---|---|');
  for (const d of deliveries) {
    console.log(`| ${d.label} | ${d.acceptS.toFixed(1)} | ${d.atAccepted} | ${d.totalS.toFixed(1)} | ${d.perS} | ${d.drainPerS} | ${d.drainCpu}% | ${d.perMessage.node.toFixed(1)} / ${d.perMessage.pg.toFixed(1)} | ${d.rssMb} |`);
  }
} finally {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await app.close();
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
}

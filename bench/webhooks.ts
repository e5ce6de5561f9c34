/**
 * Webhook deliveries per second to a local HTTP receiver, against a baseline of the same signed
 * POSTs sent by a bare loop, in the same run.
 *
 *   baseline  a bare loop posting the same body, signed the same way, to the receiver over
 *             kept-alive connections (an undici Agent with the engine's connections per origin),
 *             with as many requests in flight as the engine (WEBHOOK_IN_FLIGHT)
 *   engine    N internal events for one webhook, turned into deliveries and delivered by the
 *             engine (dispatch, claim, sign, post, log each attempt, account), timed from the
 *             first tick until every delivery is recorded delivered in the database: the end of
 *             the first tick after which the run's delivered rows (counted through the log's
 *             index on webhook and creation time, once its attempts as runTick reports them add
 *             up to N) are N. runTick returns once all it attempted is recorded, so the count
 *             checks that end rather than being part of it: it is not timed
 * The service runs the api role only and the bench drives the engine's ticks itself, so no
 * worker's own ticks blur the figure. The last line is `BENCH {"deliveries_per_s":..,"ratio":..}`.
 * Each side runs RUNS times, alternated with the other, and its best run counts: on a shared
 * machine a burst of other work then slows one run, not the figure. Each run's CPU per delivery
 * is printed too (this process, all threads; and the embedded PostgreSQL's, from /proc, for the
 * engine's timed region), with the statements the engine sent per delivery: on two cores the
 * ratio is mostly what both spend per delivery against what the bare loop spends.
 * Each side first runs once untimed (a warm-up: V8 compiles both sides' hot code while it runs,
 * and a first run measured the compiler as much as the path; the engine has more code to compile).
 * Six runs each, not three: both sides still get faster through their third or fourth run (V8
 * optimizing more of their code), so the best of three measured how far each had warmed up as
 * much as the path.
 * The main thread's CPU per delivery is printed beside the process's: the bench's one thread
 * holds the receiver and the loop or the engine, so it is what bounds either side. So are the
 * two ends of each engine run: until its first request reaches the receiver (the first batch is
 * dispatched), and from its last request to the last delivery recorded.
 * BENCH_PROFILE=<folder> writes a CPU profile of each timed run (baseline-<n>, engine-<n>).
 * Usage: npm run bench:webhooks [-- events [runs]]   (default 4000 events, 6 runs)
 */
import 'reflect-metadata';
import http from 'node:http';
import { Agent } from 'undici';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../src/app.js';
import { newId, sortableId } from '../src/lib/ids.js';
import { runTick } from '../src/engines/webhooks/webhook.worker.js';
import { signatureHeaders } from '../src/lib/webhook-signature.js';
import { NO_API_LIMITS } from './limits.js';
import { yearOfWeeks } from './service.js';

const events = Number(process.argv[2] ?? 4000);
const RUNS = Number(process.argv[3] ?? 6);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-hooks-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

let received = 0;
/** When the receiver got its first and its last request of a run (performance.now()). */
let firstAt = 0;
let lastAt = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    lastAt = performance.now();
    if (received++ === 0) firstAt = lastAt;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const app = await startApp({
  roles: ['api'],
  env: {
    DATA_DIR: dir, EMBEDDED_PG_PORT: '5496', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ADMIN_TOKEN: token, DOMAIN_REQUIRE_DNS: 'false', WEBHOOK_ALLOW_PRIVATE: 'true', ...NO_API_LIMITS,
    // The engine's own settings may be tried from the environment (the baseline follows them).
    ...Object.fromEntries(['WEBHOOK_IN_FLIGHT', 'WEBHOOK_CONNECTIONS_PER_ORIGIN'].filter((k) => process.env[k]).map((k) => [k, process.env[k]])),
  },
});

async function call(method: string, p: string, body?: unknown) {
  const res = await fetch(`${app.url}${p}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text);
}

const { WEBHOOK_IN_FLIGHT: IN_FLIGHT, WEBHOOK_CONNECTIONS_PER_ORIGIN: CONNECTIONS } = app.services.config;
const agent = new Agent({ connections: CONNECTIONS, pipelining: 1 });
const origin = new URL(receiverUrl).origin;

/** The same POST a delivery makes, by hand: signed body, over a kept-alive connection. */
async function post(body: string, secret: string): Promise<void> {
  const res = await agent.request({
    origin,
    path: '/hook',
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signatureHeaders(secret, body, `msg_${newId(24)}`, new Date()) },
    body,
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`baseline: HTTP ${res.statusCode}`);
}

/**
 * CPU seconds (user + system) of the embedded PostgreSQL: the postmaster, its live children (the
 * pool's backends, the WAL writer...) and the children it has reaped. Read before and after the
 * engine's runs, it gives PostgreSQL's CPU per delivery beside this process's (process.cpuUsage).
 */
const TICKS = 100;
function statOf(pid: number | string): number[] {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on.
  return text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
}
/** CPU seconds of this process's main thread (its task is the process id), apart from V8's helper threads. */
function mainThreadSeconds(): number {
  const st = statOf(`self/task/${process.pid}`);
  return (st[11] + st[12]) / TICKS;
}
/** The WAL PostgreSQL has written, in bytes. */
async function walBytes(): Promise<number> {
  const [{ n }] = await app.services.orm.em.fork().execute<{ n: string }[]>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint as n`);
  return Number(n);
}
async function pgCpuSeconds(): Promise<number> {
  const [{ pid }] = await app.services.orm.em.fork().execute<{ pid: number }[]>('select pg_backend_pid() as pid');
  const postmaster = statOf(pid)[1];
  const own = statOf(postmaster);
  let ticks = own[11] + own[12] + own[13] + own[14];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const st = statOf(entry);
      if (st[1] === postmaster) ticks += st[11] + st[12];
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / TICKS;
}

/**
 * BENCH_PROFILE=<folder>: a CPU profile of each timed run, apart (baseline-<run>, engine-<run>),
 * without the start-up and schema building that a whole-process --cpu-prof is mostly made of.
 */
const profileDir = process.env.BENCH_PROFILE;
const inspector = profileDir ? new Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  // Every 100 us rather than every millisecond: a run is a few hundred milliseconds.
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
}
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!inspector) return run();
  await inspector.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(path.join(profileDir!, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

/** Statements this process sends to PostgreSQL (every pg client's query calls), for statements per delivery. */
let statements = 0;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements++;
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

try {
  await yearOfWeeks((await app.services.orm.em.getConnection().getNativeClient()) as pg.Pool);
  const domain = (await call('POST', '/v1/domains', { name: `bench-hooks-${newId(6)}.example` })).data;
  const hook = (await call('POST', '/v1/webhooks', { url: receiverUrl, name: 'bench', events: ['activity.delivered'], domain_id: domain.id, enabled: true })).data;
  const em = app.services.orm.em.fork();
  const [{ account_id: accountId }] = await em.execute<{ account_id: string }[]>('select account_id from domains where id = ?', [domain.id]);
  const payload = {
    id: 'x', domain_id: domain.id, message_id: 'm', email_id: 'e', type: 'delivered', subject: 'Your receipt',
    email: 'reader@example.net', tags: [], meta: [], created_at: new Date().toISOString(),
  };
  const body = JSON.stringify({ type: 'activity.delivered', created_at: new Date().toISOString(), data: payload });

  /** The same requests, IN_FLIGHT at a time; returns requests per second. */
  async function baseline(): Promise<number> {
    received = 0;
    let sent = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < events) {
        sent++;
        await post(body, hook.secret);
      }
    }));
    const rate = events / ((performance.now() - t0) / 1000);
    if (received !== events) throw new Error(`baseline: expected ${events} requests, got ${received}`);
    return rate;
  }

  /** N events in the outbox (not timed), then ticks until all are delivered; returns deliveries per second. */
  let delivered = 0;
  async function engine(cost: { engine: number[]; main: number[]; sys: number[]; pg: number[]; wal: number[]; statements: number[]; ends: string[] }): Promise<number> {
    // PostgreSQL makes the rows itself: a JSON document of N events, quoted into the SQL text by
    // the ORM, left megabytes of this process's garbage for the timed run below to collect. As an
    // activity's event has them (activity/activity.record.ts): an id that starts with the second it was
    // made in (sortableId), and the payload as its producer wrote it (`json` keeps the text).
    await em.execute(
      `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
       select ? || substr(md5(random()::text || g::text), 1, 10), ?, ?, 'activity.delivered', ?::json, now() from generate_series(1, ?) as g`,
      [sortableId().slice(0, 6), accountId, domain.id, JSON.stringify(payload), events],
    );
    delivered += events;
    received = 0;
    // Deliveries are created by the run's ticks, so none of this run's is older than this.
    const since = new Date().toISOString();
    let attempted = 0;
    // CPU of the timed region only (the events' insert above is not the engine's work).
    const pg0 = await pgCpuSeconds();
    const wal0 = await walBytes();
    const statements0 = statements;
    const main0 = mainThreadSeconds();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let end: number;
    let cpu: NodeJS.CpuUsage;
    let main: number;
    for (;;) {
      attempted += (await runTick(app.services)).attempted;
      if (attempted < events) continue;
      end = performance.now();
      cpu = process.cpuUsage(cpu0);
      main = mainThreadSeconds();
      const [{ n }] = await em.execute<{ n: string }[]>(
        `select count(*) as n from webhook_deliveries where webhook_id = ? and created_at >= ? and state = 'delivered'`,
        [hook.id, since],
      );
      if (Number(n) >= events) break;
    }
    const rate = events / ((end - t0) / 1000);
    // The run's two ends: until the first request reached the receiver, and from the last one to
    // the last delivery recorded; between them the engine posts at full pace.
    cost.ends.push(`${(firstAt - t0).toFixed(1)} + ${(end - lastAt).toFixed(1)} of ${(end - t0).toFixed(0)}`);
    cost.main.push(((main - main0) * 1e6) / events);
    cost.engine.push((cpu.user + cpu.system) / events);
    cost.sys.push(cpu.system / events);
    cost.statements.push((statements - statements0) / events);
    cost.pg.push((((await pgCpuSeconds()) - pg0) * 1e6) / events);
    cost.wal.push(((await walBytes()) - wal0) / events);
    const [{ attempts }] = await em.execute<{ attempts: string }[]>(`select count(*) as attempts from webhook_attempts where webhook_id = ? and delivery_id is not null`, [hook.id]);
    if (Number(attempts) !== delivered || received !== events) throw new Error(`expected ${delivered} attempts and ${events} requests, got ${attempts} and ${received}`);
    return rate;
  }

  // Alternated, so a load change on the machine hits both sides alike; each side's best run counts.
  const bases: number[] = [];
  const engines: number[] = [];
  // CPU per delivery of each run (us): this process (all its threads), PostgreSQL, and statements sent.
  const cost = { base: [] as number[], baseMain: [] as number[], engine: [] as number[], main: [] as number[], sys: [] as number[], pg: [] as number[], wal: [] as number[], statements: [] as number[], ends: [] as string[] };
  // The warm-up: one untimed run of each side.
  await baseline();
  await engine({ engine: [], main: [], sys: [], pg: [], wal: [], statements: [], ends: [] });
  for (let run = 0; run < RUNS; run++) {
    let cpu = process.cpuUsage();
    const main0 = mainThreadSeconds();
    bases.push(await profiled(`baseline-${run}`, baseline));
    cpu = process.cpuUsage(cpu);
    cost.baseMain.push(((mainThreadSeconds() - main0) * 1e6) / events);
    cost.base.push((cpu.user + cpu.system) / events);
    engines.push(await profiled(`engine-${run}`, () => engine(cost)));
  }
  const base = Math.max(...bases);
  const best = Math.max(...engines);
  const runs = (rates: number[]) => rates.map((r) => Math.round(r)).join(', ');
  console.log(
    `\n${events} webhook requests per run, ${RUNS} runs each after one untimed warm-up, alternated; ${IN_FLIGHT} in flight, at most ${CONNECTIONS} ` +
      `kept-alive connections to the receiver; ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'})`,
  );
  console.log('| scenario | requests/s (best run) | runs | vs baseline |');
  console.log('|---|---|---|---|');
  console.log(`| baseline: a bare loop posting the same signed body over kept-alive connections | ${Math.round(base)} | ${runs(bases)} | 1.00 |`);
  console.log(`| engine: dispatch, sign, post, log and account each delivery | ${Math.round(best)} | ${runs(engines)} | ${(best / base).toFixed(2)} |`);
  const list = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join(', ');
  console.log(
    `CPU per delivery, each run: this process ${list(cost.base)} us (baseline; main thread ${list(cost.baseMain)}), ` +
      `${list(cost.engine)} us (engine; main thread ${list(cost.main)}; system ${list(cost.sys)}); ` +
      `PostgreSQL ${list(cost.pg)} us (engine); statements per delivery ${list(cost.statements, 3)}`,
  );
  console.log(`The engine's runs, ms to its first request + from its last request to the last delivery recorded, of the run: ${cost.ends.join('; ')}`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `BENCH ${JSON.stringify({
      deliveries_per_s: Math.round(best),
      ratio: Number((best / base).toFixed(2)),
      postgres_us_per_delivery: Math.round(median(cost.pg)),
      statements_per_delivery: Number(median(cost.statements).toFixed(3)),
      wal_bytes_per_delivery: Math.round(median(cost.wal)),
    })}`,
  );
} finally {
  await agent.close();
  await app.close();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

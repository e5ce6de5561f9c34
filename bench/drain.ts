/**
 * The delivery drain alone, quicker than bench:sending to iterate on: a worker process drains a
 * first backlog of N sends untimed (its code compiled and its pools open, as the bare loop's
 * untimed run warms it), is stopped (SIGSTOP) while the api role accepts N more, then resumed and
 * timed from its first delivery to its last into a local SMTP sink (DKIM-signed); beside it the
 * same baseline as bench:sending's, the same signed messages through one pooled nodemailer
 * transport (after one untimed run of it). Also counts
 * the worker's queries per delivered message (bench/count-queries.ts, preloaded), the database's
 * transactions per message (pg_stat_database) and the worker's CPU time per message (/proc).
 * BENCH_PROF_DIR=<dir> runs the worker under `node --cpu-prof` (bench/service.ts).
 * Usage: npm run bench:drain [-- messages]   (default 3000)
 */
import 'reflect-metadata';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { decrypt } from '../src/lib/secrets.js';
import { startSmtpSink } from '../test/support/smtp-sink.js';
import { cpuSeconds, peakRssOf, postgresCpu, postmasterOf, printBench, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess, yearOfWeeks } from './service.js';
import { pooledNodemailerLoop } from './sending-bare.js';

const messages = Number(process.argv[2] ?? 3000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-drain-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const APP_SECRET = 'bench-app-secret-0000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

/**
 * CPU seconds of a process's threads by kind, from /proc/<pid>/task: its main thread, V8's helpers
 * (`V8Worker`: garbage collection and compilation off the main thread), libuv's pool
 * (`libuv-worker`: here the DKIM signatures' RSA) and the rest.
 */
function threadSeconds(pid: number): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = task === String(pid) ? 'main' : text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      byKind.set(name, (byKind.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // Gone meanwhile.
    }
  }
  return byKind;
}
let postmaster = 0;
const countFile = path.join(dir, 'queries');
/** PostgreSQL's backends report their table and transaction counts after at most 10 s idle (PGSTAT_IDLE_INTERVAL). */
const STATS_IDLE_MS = 11_000;
const queries = () => {
  try {
    return Number(readFileSync(countFile, 'utf8'));
  } catch {
    return 0;
  }
};

const db = await startDb(dir);
const sql = new pg.Pool({ connectionString: db.url, max: 2 });
sql.on('error', () => undefined);
{
  postmaster = await postmasterOf(sql);
}
const running: RoleProcess[] = [];
// The worker's RSS sampler, stopped however the run ends (its timer would keep the bench alive).
let stopRss = () => ({}) as Record<string, number>;
const sink = await startSmtpSink();
const env = serviceEnv({ dbUrl: db.url, dir, appSecret: APP_SECRET, token }, { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` });
try {
  const api = await spawnRole('api', env);
  running.push(api);
  if (!process.env.BENCH_WEEKS_NOW_ONLY) await yearOfWeeks(sql);
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${api.url}${p}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { data: { id: string; name: string; whoami?: { account_id: string } } };
  };
  const domain = (await call('POST', '/v1/domains', { name: 'bench-drain.example.com' })).data;
  await sql.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
  const from = `receipts@${domain.name}`;
  const body = JSON.stringify({
    from: { email: from, name: 'Bench' },
    to: [{ email: 'r[<id>]@example.net', name: 'Reader' }],
    subject: 'Your receipt',
    html: '<p>Hello, here is <a href="https://example.com/r">your receipt</a>.</p>',
    text: 'Hello, here is your receipt: https://example.com/r',
  });
  const accept = async () => {
    const r = await autocannon({ url: `${api.url}/v1/email`, method: 'POST', headers: auth, body, idReplacement: true, connections: 50, amount: messages });
    if (r.non2xx || r.errors) throw new Error(`accept: non2xx=${r.non2xx} errors=${r.errors}`);
    await sleep(500);
  };
  const deliveredAll = async (from: number) => {
    const deadline = Date.now() + 600_000;
    while (sink.received.length - from < messages) {
      if (Date.now() > deadline) throw new Error(`${sink.received.length - from}/${messages} delivered after 10 minutes`);
      await sleep(2);
    }
  };

  // The worker's untimed first drain, then the backlog it is timed on, accepted while it is stopped.
  await accept();
  const worker = await spawnRole('worker', {
    ...env,
    NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'count-queries.js')}`,
    BENCH_QUERY_COUNT_FILE: countFile,
  }, 0);
  running.push(worker);
  await deliveredAll(0);
  await sleep(1500);
  worker.child.kill('SIGSTOP');
  const warmedAt = Date.now();
  await accept();
  await api.stop();

  const { rows: [key] } = await sql.query<{ dkim_selector: string; dkim_private_key_enc: string }>(
    'select dkim_selector, dkim_private_key_enc from domains where id = $1',
    [domain.id],
  );
  const dkim = { domainName: domain.name, keySelector: key.dkim_selector, privateKey: decrypt(APP_SECRET, key.dkim_private_key_enc) };
  // Once untimed first: a cold first run of the loop was up to a third slower than the next.
  await pooledNodemailerLoop(sink, messages, from, dkim);
  const bareCpu0 = process.cpuUsage();
  const bare = await pooledNodemailerLoop(sink, messages, from, dkim);
  const bareCpu = process.cpuUsage(bareCpu0);
  // Row updates of the two tables delivery updates per email, and how many were HOT (no index entry written).
  const updates = async () => {
    const { rows } = await sql.query<{ relname: string; upd: string; hot: string }>(
      `select relname, n_tup_upd as upd, n_tup_hot_upd as hot from pg_stat_user_tables where relname in ('emails', 'messages')`,
    );
    return new Map(rows.map((r) => [r.relname, { upd: Number(r.upd), hot: Number(r.hot) }]));
  };
  const xacts = async () => Number((await sql.query<{ n: string }>('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
  // A backend reports its statistics when idle for 10 s at the latest: the first drain's, to be left
  // out of the counts below, are all in by then.
  await sleep(Math.max(0, warmedAt + STATS_IDLE_MS - Date.now()));
  const start = sink.received.length;
  const x0 = await xacts();
  const u0 = await updates();
  const rss = peakRssOf({ worker: worker.pid });
  stopRss = () => rss.stop();
  worker.child.kill('SIGCONT');
  while (sink.received.length === start) await sleep(2);
  const t0 = performance.now();
  const q0 = queries();
  const sinkCpu0 = process.cpuUsage();
  const pg0 = postgresCpu(postmaster);
  const cpu0 = cpuSeconds(worker.pid);
  const threads0 = threadSeconds(worker.pid);
  await deliveredAll(start);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(worker.pid) - cpu0;
  const threads = [...threadSeconds(worker.pid)]
    .map(([kind, s]) => [kind, ((s - (threads0.get(kind) ?? 0)) * 1000) / messages] as const)
    .filter(([, msPer]) => msPer >= 0.005);
  const sinkCpu = process.cpuUsage(sinkCpu0);
  const pgCpu = postgresCpu(postmaster) - pg0;
  const workerRss = rss.stop().worker;
  // Let the last outcomes commit, and their statistics be reported, before counting.
  await sleep(STATS_IDLE_MS);
  const transactions = (await xacts()) - x0;
  const u1 = await updates();
  const hotShare = (t: string) => {
    const upd = u1.get(t)!.upd - u0.get(t)!.upd;
    return `${t} ${(upd / messages).toFixed(2)}/message, ${Math.round((100 * (u1.get(t)!.hot - u0.get(t)!.hot)) / Math.max(1, upd))} % HOT`;
  };
  const statements = queries() - q0;
  await worker.stop();
  if (process.env.BENCH_SHOW_QUERIES) console.log(readFileSync(`${countFile}.kinds`, 'utf8').split('\n').slice(0, 25).join('\n'));
  const drain = Math.round((messages - 1) / seconds);
  console.log(`bare pooled nodemailer: ${bare.perS} msgs/s; worker drain: ${drain} msgs/s (${seconds.toFixed(2)} s); ratio ${(drain / bare.perS).toFixed(2)}`);
  console.log(
    `worker CPU ${((cpu * 1000) / messages).toFixed(2)} ms/message; worker queries ${(statements / messages).toFixed(2)}/message while draining; database transactions ${(transactions / messages).toFixed(2)}/message; worker peak RSS ${workerRss} MB`,
  );
  console.log(`row updates while draining: ${hotShare('emails')}; ${hotShare('messages')}`);
  console.log(`worker CPU by thread, ms/message: ${threads.map(([kind, msPer]) => `${kind} ${msPer.toFixed(2)}`).join(', ')}`);
  const ms = (us: NodeJS.CpuUsage) => (us.user + us.system) / 1000;
  console.log(
    `bare loop CPU (client + sink, this process) ${(ms(bareCpu) / messages).toFixed(2)} ms/message; sink alone while the worker drained ${(ms(sinkCpu) / messages).toFixed(2)}; postgres ${((pgCpu * 1000) / messages).toFixed(2)}`,
  );
  printBench({
    drain_msgs_per_s: drain,
    bare_msgs_per_s: bare.perS,
    drain_ratio: +(drain / bare.perS).toFixed(2),
    worker_cpu_ms_per_msg: +((cpu * 1000) / messages).toFixed(2),
    worker_queries_per_msg: +(statements / messages).toFixed(2),
    postgres_cpu_ms_per_msg: +((pgCpu * 1000) / messages).toFixed(2),
    bare_client_cpu_ms_per_msg: +((ms(bareCpu) - ms(sinkCpu)) / messages).toFixed(2),
    worker_rss_mb: workerRss,
  });
} finally {
  stopRss();
  await teardown({ running, sink, sql, db, dir });
}

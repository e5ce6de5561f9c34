/**
 * Resident memory of the api and the worker role, each in its own process (bench/service.ts), in
 * a quicker loop than bench:sending: idle, then N DKIM-signed sends accepted at 50 connections and
 * drained by the worker into a local SMTP sink, then GET /v1/token at 20 connections. Prints each
 * phase's peak RSS per role, the split of the last sample (/proc/<pid>/smaps_rollup: anonymous
 * memory vs mapped files; of those, the node executable's pages and malloc's main arena) and the
 * CPU each role spent per message or request (to check that a memory lever keeps the CPU cost),
 * and ends with one line `BENCH {...}`. What loads in a role, and so stays resident: see
 * test/platform/role-modules.test.ts.
 * The roles take this process's environment: `HEAP_GROWING_PERCENT=0` compares with V8's own heap
 * growing factor, BENCH_NODE_FLAGS other V8 flags (bench/service.ts).
 * A role's heap snapshot: start with BENCH_NODE_FLAGS='--max-semi-space-size=16
 * --heapsnapshot-signal=SIGUSR2' and BENCH_SNAPSHOT=1 (written in the working directory: the
 * worker's once it drained, the api's after the list load).
 * Usage: npm run bench:memory [-- messages [seconds]]   (default 2000 messages, 8 s list)
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startSmtpSink } from '../test/support/smtp-sink.js';
import { peakRssOf, printBench, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess } from './service.js';

const messages = Number(process.argv[2] ?? 2000);
const seconds = Number(process.argv[3] ?? 8);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-mem-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

/**
 * Rss, Anonymous and file-backed (Rss − Anonymous) MB of a process now, and two parts of them:
 * `node`, the pages of the node executable it touched (file-backed, even for an empty script),
 * and `brk`, glibc malloc's main arena ([heap]; its other arenas are anonymous mappings
 * like V8's pages). The rest of `anon` is V8's heap, thread stacks and those arenas.
 */
function split(pid: number) {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  const mb = (n: number) => Math.round(n / 1024);
  const part = { node: 0, brk: 0 };
  let into: keyof typeof part | null = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) into = mapping[1] === '[heap]' ? 'brk' : mapping[1] === process.execPath ? 'node' : null;
    else if (into && line.startsWith('Rss:')) part[into] += Number(/\d+/.exec(line)![0]);
  }
  return { rss: mb(kb('Rss')), anon: mb(kb('Anonymous')), file: mb(kb('Rss') - kb('Anonymous')), node: mb(part.node), brk: mb(part.brk) };
}

/** CPU seconds (user + system) spent so far by a process (`all`) and by its main thread (`main`). */
function cpuOf(pid: number) {
  // utime and stime, in clock ticks of 1/100 s (Linux's USER_HZ).
  const read = (file: string) => {
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  // The main thread runs the JavaScript and bounds the throughput; V8's GC helpers and libuv's
  // pool (the DKIM signatures) run on the others.
  return { all: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
}
const since = (pid: number, before: { all: number; main: number }) => {
  const now = cpuOf(pid);
  return { all: now.all - before.all, main: now.main - before.main };
};
/** `main / all` ms (or µs) per unit. */
const per = (c: { all: number; main: number }, n: number, scale: number) => `${((c.main * scale) / n).toFixed(2)} / ${((c.all * scale) / n).toFixed(2)}`;

const db = await startDb(dir);
const sql = new pg.Pool({ connectionString: db.url, max: 2 });
sql.on('error', () => undefined);
const running: RoleProcess[] = [];
const sink = await startSmtpSink();
const snapshot = (p: RoleProcess) => process.env.BENCH_SNAPSHOT && p.child.kill('SIGUSR2');
try {
  const env = serviceEnv({ dbUrl: db.url, dir, appSecret: 'bench-app-secret-0000000000000000000000000000', token }, { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` });
  const api = await spawnRole('api', env);
  running.push(api);
  const worker = await spawnRole('worker', env);
  running.push(worker);
  const base = api.url!;
  const res = await fetch(`${base}/v1/domains`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'bench-memory.example.com' }) });
  const domain = ((await res.json()) as { data: { id: string; name: string } }).data;
  await sql.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
  await sleep(3000);
  const idle = { api: split(api.pid), worker: split(worker.pid) };

  const body = JSON.stringify({
    from: { email: `receipts@${domain.name}`, name: 'Bench' },
    to: [{ email: 'r[<id>]@example.net', name: 'Reader' }],
    subject: 'Your receipt',
    html: '<p>Hello, here is <a href="https://example.com/r">your receipt</a>.</p>',
    text: 'Hello, here is your receipt: https://example.com/r',
  });
  const cpu0 = { api: cpuOf(api.pid), worker: cpuOf(worker.pid) };
  const sendPeak = peakRssOf({ api: api.pid, worker: worker.pid });
  const t0 = performance.now();
  const r = await autocannon({ url: `${base}/v1/email`, method: 'POST', headers: auth, body, idReplacement: true, connections: 50, amount: messages });
  if (r.non2xx || r.errors) throw new Error(`sends: non2xx=${r.non2xx} errors=${r.errors}`);
  const accepted = performance.now();
  const apiSendCpu = since(api.pid, cpu0.api);
  const deadline = Date.now() + 600_000;
  while (sink.received.length < messages) {
    if (Date.now() > deadline) throw new Error(`${sink.received.length}/${messages} delivered after 10 minutes`);
    await sleep(20);
  }
  const done = performance.now();
  const send = { peak: sendPeak.stop(), api: split(api.pid), worker: split(worker.pid) };
  const workerCpu = since(worker.pid, cpu0.worker);
  snapshot(worker);

  const cpu1 = cpuOf(api.pid);
  const listPeak = peakRssOf({ api: api.pid });
  const l = await autocannon({ url: `${base}/v1/token`, headers: auth, connections: 20, duration: seconds });
  const list = { peak: listPeak.stop(), api: split(api.pid) };
  const listCpu = since(api.pid, cpu1);
  snapshot(api);
  await sleep(2000);

  console.log(`idle: api ${JSON.stringify(idle.api)} worker ${JSON.stringify(idle.worker)}`);
  console.log(`sending ${messages}: accepted in ${((accepted - t0) / 1000).toFixed(1)} s, delivered in ${((done - t0) / 1000).toFixed(1)} s`);
  console.log(`  peak RSS api ${send.peak.api} worker ${send.peak.worker}; end api ${JSON.stringify(send.api)} worker ${JSON.stringify(send.worker)}`);
  console.log(`  CPU per message, main thread / process: api ${per(apiSendCpu, messages, 1000)} ms, worker ${per(workerCpu, messages, 1000)} ms`);
  console.log(`list GET /v1/token: ${Math.round(l.requests.average)} req/s, p99 ${l.latency.p99} ms, peak RSS api ${list.peak.api}; end ${JSON.stringify(list.api)}`);
  console.log(`  CPU per request, main thread / process: api ${per(listCpu, l.requests.total, 1e6)} µs`);
  printBench({
    api_idle_rss_mb: idle.api.rss,
    worker_idle_rss_mb: idle.worker.rss,
    api_send_rss_mb: send.peak.api,
    worker_rss_mb: send.peak.worker,
    api_list_rss_mb: list.peak.api,
    api_ms_per_send: +((apiSendCpu.all * 1000) / messages).toFixed(2),
    api_main_ms_per_send: +((apiSendCpu.main * 1000) / messages).toFixed(2),
    worker_ms_per_message: +((workerCpu.all * 1000) / messages).toFixed(2),
    worker_main_ms_per_message: +((workerCpu.main * 1000) / messages).toFixed(2),
    api_us_per_list: Math.round((listCpu.all * 1e6) / l.requests.total),
    api_main_us_per_list: Math.round((listCpu.main * 1e6) / l.requests.total),
  });
} finally {
  await teardown({ running, sink, sql, db, dir });
}

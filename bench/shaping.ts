/**
 * Traffic shaping under load (docs/delivery.md, "Traffic shaping"): two worker processes deliver
 * with MAIL_TRANSPORT=mx to two local providers on one port, `fast.bench` (127.0.0.3, a site with
 * no rate) and `paced.bench` (127.0.0.2, a site DELIVERY_SHAPING limits to R messages a minute).
 * First the fast site's backlog alone is drained and timed (the baseline); then the same backlog
 * again, mixed with a backlog for the paced site far larger than R, and the fast site's drain is
 * timed again: its ratio to the baseline says whether the paced site holds up the others. The
 * paced site is then watched for a minute and a half: the most it took in any 60 s is reported
 * beside R.
 * Usage: npm run bench:shaping [-- fast-messages paced-messages per-minute]   (default 2000 400 120)
 */
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startDnsServer } from '../test/support/dns.js';
import { startMxProvider } from '../test/support/mx-provider.js';
import { printBench, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess } from './service.js';

const fastCount = Number(process.argv[2] ?? 2000);
const pacedCount = Number(process.argv[3] ?? 400);
const perMinute = Number(process.argv[4] ?? 120);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-shaping-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

/** The most arrivals in any window of `ms`. */
function mostIn(times: number[], ms: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

const db = await startDb(dir);
const sql = new pg.Pool({ connectionString: db.url, max: 2 });
sql.on('error', () => undefined);
const paced = await startMxProvider('127.0.0.2');
const fast = await startMxProvider('127.0.0.3', paced.port);
const dns = await startDnsServer();
dns.add('mx.paced.bench', { type: 'A', address: '127.0.0.2' });
dns.add('mx.fast.bench', { type: 'A', address: '127.0.0.3' });
dns.add('paced.bench', { type: 'MX', exchange: 'mx.paced.bench', priority: 10 });
dns.add('fast.bench', { type: 'MX', exchange: 'mx.fast.bench', priority: 10 });
const running: RoleProcess[] = [];
const env = serviceEnv(
  { dbUrl: db.url, dir, appSecret: 'bench-app-secret-0000000000000000000000000000', token },
  {
    MAIL_TRANSPORT: 'mx',
    MX_PORT: String(paced.port),
    MX_ALLOW_PRIVATE: 'true',
    DNS_SERVERS: dns.server,
    DELIVERY_SHAPING: JSON.stringify({ paced: { mx: ['*.paced.bench'], per_minute: perMinute } }),
  },
);
try {
  const api = await spawnRole('api', env);
  running.push(api);
  const res = await fetch(`${api.url}/v1/domains`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'bench-shaping.example.com' }) });
  const domain = ((await res.json()) as { data: { id: string; name: string } }).data;
  await sql.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
  const accept = async (to: string, amount: number) => {
    const body = JSON.stringify({ from: { email: `hi@${domain.name}` }, to: [{ email: to }], subject: 'Shaped', text: 'Hello' });
    const r = await autocannon({ url: `${api.url}/v1/email`, method: 'POST', headers: auth, body, idReplacement: true, connections: 20, amount });
    if (r.non2xx || r.errors) throw new Error(`accept: non2xx=${r.non2xx} errors=${r.errors}`);
  };
  const workers = [await spawnRole('worker', env, 0), await spawnRole('worker', env, 0)];
  running.push(...workers);
  const pause = () => workers.forEach((w) => w.child.kill('SIGSTOP'));
  const resume = () => workers.forEach((w) => w.child.kill('SIGCONT'));
  /** Seconds from the first arrival of `count` more at the fast site to the last. */
  const drainFast = async (count: number) => {
    const start = fast.taken.length;
    const deadline = Date.now() + 600_000;
    while (fast.taken.length - start < count) {
      if (Date.now() > deadline) throw new Error(`${fast.taken.length - start}/${count} at the fast site after 10 minutes`);
      await sleep(5);
    }
    return (fast.taken[start + count - 1] - fast.taken[start]) / 1000;
  };

  // Warm: both workers' code compiled and pools open.
  await accept('w[<id>]@fast.bench', 200);
  await drainFast(200);
  pause();
  await accept('a[<id>]@fast.bench', fastCount);
  resume();
  const alone = await drainFast(fastCount);

  pause();
  // The two backlogs interleaved in the queue: paced ones first, then fast, then paced again.
  await accept('p[<id>]@paced.bench', pacedCount / 2);
  await accept('b[<id>]@fast.bench', fastCount);
  await accept('q[<id>]@paced.bench', pacedCount / 2);
  const mixedAt = Date.now();
  resume();
  const mixed = await drainFast(fastCount);
  await sleep(Math.max(0, mixedAt + 90_000 - Date.now()));
  const most = mostIn(paced.taken, 60_000);

  printBench({
    fast_alone_msgs_per_s: +(fastCount / alone).toFixed(0),
    fast_beside_paced_msgs_per_s: +(fastCount / mixed).toFixed(0),
    fast_ratio: +(alone / mixed).toFixed(2),
    paced_limit_per_min: perMinute,
    paced_most_in_60s: most,
    paced_taken_90s: paced.taken.length,
    workers: workers.length,
  });
} finally {
  await teardown({ running, sink: null, sql, db, dir });
  await Promise.all([paced.close(), fast.close(), dns.close()]);
}

/**
 * Live subscriptions at scale: how many SSE listeners one api process holds, what each costs, and
 * how fast an event reaches them.
 *
 * For each size (1,000 and 5,000 listeners by default): the listeners subscribe to `activity` on
 * one api process (A), spread over 5 accounts and 4 domains each, half with the account's token
 * and half with a token limited to the domain. Emails are then sent through /v1 on a second api
 * process (B), so every event crosses processes by PostgreSQL NOTIFY, as a worker's do. Each
 * listener counts the events it hears, checks each is of its own domain, and times it from the
 * moment /v1 answered 202. Baseline in the same run: a bare SSE fan-out (sse-fanout.ts, its own
 * process) that hears the same events of the same sends by the same NOTIFY and writes each notice
 * as it came to as many listeners, so the two runs differ only in what the listening process does.
 * Ends with one line `BENCH {...}`: per size, `events_per_s` (events delivered to listeners per
 * second, from the first send to the last event), `p50_ms`/`p99_ms`, `kb_per_listener` (api A's
 * resident memory growth with its listeners open), `api_rss_mb` (its peak), `ratio` (events_per_s
 * over the baseline's), `foreign_events` (events of another domain or account: must be 0) and
 * `lost_events`.
 * Usage: npm run bench:subscriptions [-- 1000,5000]   (BENCH_EMAILS: emails per size, default 200)
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { activityTopic } from '../src/modules/activity/activity.notice.js';
import { peakRssOf, printBench, rssMbOf, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess } from './service.js';

const sizes = (process.argv[2] ?? '1000,5000').split(',').map(Number);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 200);
const ACCOUNTS = 5;
const DOMAINS_PER_ACCOUNT = 4;
const SEND_CONCURRENCY = 8;
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef';
const APP_SECRET = 'bench-app-secret-0123456789abcdef0123456789';
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-subs-'));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

interface Domain {
  id: string;
  name: string;
  accountId: string;
  /** The account's full token and a token limited to this domain. */
  tokens: [string, string];
}

/**
 * One SSE listener: counts what it hears of the run's events. A GraphQL event names its emails by
 * subject (`s|<domain>|<n>`, probes `p|...`); a bare one is the notice itself, its activity ids
 * matched in order to the domain's accepted emails.
 */
class Listener {
  heard = 0;
  foreign = 0;
  probed = false;
  readonly latencies: number[] = [];
  private text = '';
  private req: http.ClientRequest | null = null;

  constructor(
    readonly domainId: string,
    private readonly run: Run,
    private readonly bare: boolean,
  ) {}

  open(url: string, headers: Record<string, string>, body: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`listener: ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.read(chunk));
        res.on('error', () => undefined);
        resolve();
      });
      this.req.on('error', reject);
      this.req.end(body);
    });
  }

  /** Forgets the probes: what it hears from now on counts. */
  reset(): void {
    this.heard = 0;
    this.latencies.length = 0;
  }

  private read(chunk: string): void {
    this.text += chunk;
    const end = this.text.lastIndexOf('\n\n');
    if (end < 0) return;
    const frames = this.text.slice(0, end);
    this.text = this.text.slice(end + 2);
    const now = performance.now();
    if (this.bare) return this.readNotices(frames, now);
    for (const [, kind, domainId, n] of frames.matchAll(/"subject":"([sp])\|([^|"]+)\|(\d+)"/g)) {
      if (domainId !== this.domainId) this.foreign++;
      else if (kind === 'p') this.probed = true;
      else this.count(now, this.run.acceptedAt.get(Number(n)));
    }
  }

  private readNotices(frames: string, now: number): void {
    for (const [, domainId, ids] of frames.matchAll(/"domain_id":"([^"]+)","ids":\[([^\]]*)\]/g)) {
      if (domainId !== this.domainId) {
        this.foreign++;
        continue;
      }
      this.probed = true;
      const accepted = this.run.acceptedByDomain.get(domainId) ?? [];
      for (let i = ids.split(',').length; i > 0; i--) this.count(now, accepted[this.heard]);
    }
  }

  private count(now: number, acceptedAt: number | undefined): void {
    this.heard++;
    this.run.arrivals.last = Math.max(this.run.arrivals.last, now);
    this.latencies.push(Math.max(0, now - (acceptedAt ?? now)));
  }

  close(): void {
    this.req?.destroy();
  }
}

async function call(base: string, method: string, p: string, auth: string, body?: unknown) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function setUp(base: string, sql: pg.Pool): Promise<Domain[]> {
  const accountTokens = [token];
  for (let a = 1; a < ACCOUNTS; a++) {
    const res = await call(base, 'POST', '/graphql', OPERATOR_TOKEN, {
      query: `mutation { operator_create_account(name: "bench ${a}") { token { accessToken } } }`,
    });
    accountTokens.push(res.body.data.operator_create_account.token.accessToken);
  }
  const domains: Domain[] = [];
  for (const [a, accountToken] of accountTokens.entries()) {
    const whoami = await call(base, 'POST', '/graphql', accountToken, { query: '{ whoami { account_id } }' });
    const accountId = whoami.body.data.whoami.account_id as string;
    for (let d = 0; d < DOMAINS_PER_ACCOUNT; d++) {
      const created = await call(base, 'POST', '/v1/domains', accountToken, { name: `subs-${a}-${d}.example.com` });
      if (created.status !== 201) throw new Error(`domain: ${created.status} ${JSON.stringify(created.body)}`);
      const id = created.body.data.id as string;
      await sql.query('update domains set is_verified = true where id = $1', [id]);
      const limited = await call(base, 'POST', '/v1/token', accountToken, { name: `listen ${id}`, scopes: ['activity_read'], domain_id: id });
      domains.push({ id, name: created.body.data.name, accountId, tokens: [accountToken, limited.body.data.accessToken] });
    }
  }
  return domains;
}

/** Runs `work` for items 0..n-1, `concurrency` at a time. */
async function inParallel(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await work(next++);
  }));
}

interface Run {
  listeners: Listener[];
  /** When /v1 answered 202 for email n, and for each domain in the order they were answered. */
  acceptedAt: Map<number, number>;
  acceptedByDomain: Map<string, number[]>;
  arrivals: { last: number };
}

function newRun(): Run {
  return { listeners: [], acceptedAt: new Map(), acceptedByDomain: new Map(), arrivals: { last: 0 } };
}

/** Probes until every listener heard one event of its domain: then all are live. */
async function untilLive(run: Run, domains: Domain[], probe: (d: Domain, k: number) => Promise<void>): Promise<void> {
  for (let k = 0; k < 30; k++) {
    const waiting = new Set(run.listeners.filter((l) => !l.probed).map((l) => l.domainId));
    if (!waiting.size) return;
    for (const d of domains) if (waiting.has(d.id)) await probe(d, k);
    await sleep(1000);
  }
  throw new Error(`${run.listeners.filter((l) => !l.probed).length} listeners never went live`);
}

/** Sends EMAILS emails through /v1, then waits for every listener to hear its domain's. */
async function measure(run: Run, domains: Domain[], send: (d: Domain, subject: string) => Promise<void>) {
  for (const l of run.listeners) l.reset();
  const perDomain = new Map<string, number>();
  for (const l of run.listeners) perDomain.set(l.domainId, (perDomain.get(l.domainId) ?? 0) + 1);
  const expected = Array.from({ length: EMAILS }, (_, n) => perDomain.get(domains[n % domains.length].id) ?? 0).reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  await inParallel(EMAILS, SEND_CONCURRENCY, async (n) => {
    const d = domains[n % domains.length];
    await send(d, `s|${d.id}|${n}`);
    const at = performance.now();
    run.acceptedAt.set(n, at);
    const list = run.acceptedByDomain.get(d.id) ?? [];
    run.acceptedByDomain.set(d.id, list);
    list.push(at);
  });
  const heard = () => run.listeners.reduce((sum, l) => sum + l.heard, 0);
  for (let waited = 0; heard() < expected && waited < 120_000; waited += 50) await sleep(50);
  const delivered = heard();
  const latencies = run.listeners.flatMap((l) => l.latencies).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    eventsPerS: delivered / ((run.arrivals.last - t0) / 1000),
    p50: at(0.5),
    p99: at(0.99),
    lost: expected - delivered,
    foreign: run.listeners.reduce((sum, l) => sum + l.foreign, 0),
  };
}

/** An email through /v1 on api B, of the domain's account. */
const sender = (b: RoleProcess) => (d: Domain, subject: string) =>
  call(b.url!, 'POST', '/v1/email', d.tokens[0], { from: { email: `news@${d.name}` }, to: [{ email: 'reader@example.net' }], subject, text: 'hello' }).then((r) => {
    if (r.status !== 202) throw new Error(`send: ${r.status} ${JSON.stringify(r.body)}`);
  });

const subscription = (domainId: string) =>
  JSON.stringify({ query: `subscription { activity(domain_id: "${domainId}") { id type email { subject } } }` });

async function graphqlRun(size: number, a: RoleProcess, b: RoleProcess, domains: Domain[]) {
  const run = newRun();
  const rssBefore = rssMbOf(a.pid);
  await inParallel(size, 50, async (i) => {
    const d = domains[i % domains.length];
    const listener = new Listener(d.id, run, false);
    run.listeners.push(listener);
    const headers = { authorization: `Bearer ${d.tokens[Math.floor(i / domains.length) % 2]}`, 'content-type': 'application/json', accept: 'text/event-stream' };
    await listener.open(`${a.url}/graphql/stream`, headers, subscription(d.id));
  });
  const send = sender(b);
  await untilLive(run, domains, (d, k) => send(d, `p|${d.id}|${k}`));
  await sleep(1000);
  const rssOpen = rssMbOf(a.pid);
  const peak = peakRssOf({ api: a.pid });
  const figures = await measure(run, domains, send);
  const rssPeak = Math.max(peak.stop().api, rssOpen);
  for (const l of run.listeners) l.close();
  return { ...figures, kbPerListener: ((rssOpen - rssBefore) * 1024) / size, rssPeak };
}

async function bareRun(size: number, bare: string, b: RoleProcess, domains: Domain[]) {
  const run = newRun();
  await inParallel(size, 50, async (i) => {
    const d = domains[i % domains.length];
    const listener = new Listener(d.id, run, true);
    run.listeners.push(listener);
    await listener.open(`${bare}/listen?topic=${encodeURIComponent(activityTopic(d.accountId))}&domain=${d.id}`, {}, '');
  });
  const send = sender(b);
  await untilLive(run, domains, (d, k) => send(d, `p|${d.id}|${k}`));
  await sleep(1000);
  const figures = await measure(run, domains, send);
  for (const l of run.listeners) l.close();
  return figures;
}

function startBare(databaseUrl: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'sse-fanout.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare fan-out exited (${code})`)));
    child.stdout!.once('data', (port: Buffer) => resolve({ url: `http://127.0.0.1:${String(port).trim()}`, stop: () => child.kill('SIGTERM') }));
  });
}

const db = await startDb(dir);
const sql = new pg.Pool({ connectionString: db.url, max: 2 });
sql.on('error', () => undefined);
const running: RoleProcess[] = [];
let bare: { url: string; stop: () => void } | null = null;
try {
  const env = serviceEnv({ dbUrl: db.url, dir, appSecret: APP_SECRET, token }, { OPERATOR_TOKEN, STREAMS_PER_ACCOUNT: '100000', STREAMS_MAX: '100000' });
  const a = await spawnRole('api', env);
  running.push(a);
  const b = await spawnRole('api', env);
  running.push(b);
  bare = await startBare(db.url);
  const domains = await setUp(b.url!, sql);
  const out: Record<string, number> = { emails: EMAILS };
  console.log(`${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}); ${domains.length} domains of ${ACCOUNTS} accounts; ${EMAILS} emails per size`);
  console.log('| listeners | events/s | p50 ms | p99 ms | KB per listener | api peak MB | bare events/s | ratio | foreign | lost |\n|---|---|---|---|---|---|---|---|---|---|');
  for (const size of sizes) {
    const g = await graphqlRun(size, a, b, domains);
    await sleep(2000);
    const base = await bareRun(size, bare.url, b, domains);
    await sleep(2000);
    const ratio = g.eventsPerS / base.eventsPerS;
    const r = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
    console.log(`| ${size} | ${r(g.eventsPerS, 0)} | ${r(g.p50)} | ${r(g.p99)} | ${r(g.kbPerListener)} | ${r(g.rssPeak, 0)} | ${r(base.eventsPerS, 0)} | ${r(ratio, 2)} | ${g.foreign} | ${g.lost} |`);
    Object.assign(out, {
      [`events_per_s_l${size}`]: r(g.eventsPerS, 0),
      [`p50_ms_l${size}`]: r(g.p50),
      [`p99_ms_l${size}`]: r(g.p99),
      [`kb_per_listener_l${size}`]: r(g.kbPerListener),
      [`api_rss_mb_l${size}`]: r(g.rssPeak, 0),
      [`bare_events_per_s_l${size}`]: r(base.eventsPerS, 0),
      [`ratio_l${size}`]: r(ratio, 3),
      [`foreign_events_l${size}`]: g.foreign + base.foreign,
      [`lost_events_l${size}`]: g.lost,
    });
  }
  printBench(out);
} finally {
  bare?.stop();
  agent.destroy();
  await teardown({ running, sql, db, dir });
}

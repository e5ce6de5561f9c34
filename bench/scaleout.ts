/**
 * Scale-out: two api processes and N worker processes (N from 1 to 4) against one PostgreSQL, as
 * compose runs them. For each N, two rounds on a database of their own: a backlog of `messages`
 * sends is accepted through both api processes while no worker runs, then N workers drain it into
 * a local SMTP sink, with a webhook on `activity.delivered` posting to a local receiver. In the
 * second round one worker is SIGKILLed once a third is delivered (with N = 1 a new one starts, as
 * a supervisor would start it). Per N: messages lost and sent twice, webhook events received
 * (distinct `webhook-id`s), the drain's seconds with and without the kill, the seconds from the
 * kill until every email held then reached the sink (the takeover), and the CPU each message
 * costs the api processes, the workers and PostgreSQL, and the WAL it writes.
 * Usage: npm run bench:scaleout [-- messages [max workers]]   (default 3000, 4)
 */
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startReceiver, type Receiver } from '../test/support/receiver.js';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.js';
import { cpuSeconds, postgresCpu, postmasterOf, printBench, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess } from './service.js';

const messages = Number(process.argv[2] ?? 3000);
const maxWorkers = Number(process.argv[3] ?? 4);
const APIS = 2;
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-scaleout-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const APP_SECRET = 'bench-app-secret-0000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const DRAIN_LIMIT_MS = 10 * 60_000;

interface Round {
  lost: number;
  duplicates: number;
  webhookEvents: number;
  drainS: number;
  /** Seconds until every message reached the sink (the webhook events may come later). */
  mailS: number;
  takeoverS: number | null;
  apiCpuMs: number;
  workerCpuMs: number;
  pgAcceptCpuMs: number;
  pgDrainCpuMs: number;
  walAcceptBytes: number;
  walDrainBytes: number;
}

/** The WAL written so far, in bytes (the cluster's: one round runs at a time). */
async function walBytes(): Promise<number> {
  const { rows: [r] } = await admin.query<{ n: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint as n`);
  return Number(r.n);
}

const db = await startDb(dir);
const admin = new pg.Client({ connectionString: db.url });
await admin.connect();
const postmaster = await postmasterOf(admin);
const sink: SmtpSink = await startSmtpSink();
const receiver: Receiver = await startReceiver();
const running: RoleProcess[] = [];

/** The Message-ID of each copy at the sink since `from`, in arrival order. */
const copiesSince = (from: number) => sink.received.slice(from).map((m) => /^Message-ID:\s*(<[^>]+>)/im.exec(m.raw.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '');

async function freshDatabase(name: string): Promise<string> {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const u = new URL(db.url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A verified domain (DNS is offline: marked by hand, as the other benches do) with a webhook posting to `hookPath`. */
async function setup(api: RoleProcess, url: string, hookPath: string): Promise<{ name: string }> {
  const call = async (p: string, body: unknown) => {
    const res = await fetch(`${api.url}${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; name: string } }).data;
  };
  const domain = await call('/v1/domains', { name: `scale-${Date.now()}.example.com` });
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  await sql.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
  await sql.end();
  receiver.respond(hookPath, { status: 200 });
  await call('/v1/webhooks', { url: receiver.url(hookPath), name: 'scale-out', events: ['activity.delivered'], domain_id: domain.id, enabled: true });
  return domain;
}

/** The backlog, accepted through every api process at once (40 connections in all). */
async function accept(apis: RoleProcess[], domain: string): Promise<void> {
  const body = JSON.stringify({
    from: { email: `receipts@${domain}`, name: 'Bench' },
    to: [{ email: 'r[<id>]@example.net', name: 'Reader' }],
    subject: 'Your receipt',
    html: '<p>Hello, here is <a href="https://example.com/r">your receipt</a>.</p>',
    text: 'Hello, here is your receipt: https://example.com/r',
  });
  const share = Math.ceil(messages / apis.length);
  const runs = await Promise.all(
    apis.map((api, i) =>
      autocannon({ url: `${api.url}/v1/email`, method: 'POST', headers: auth, body, idReplacement: true, connections: 20, amount: Math.min(share, messages - i * share) }),
    ),
  );
  for (const r of runs) if (r.non2xx || r.errors) throw new Error(`accept: non2xx=${r.non2xx} errors=${r.errors}`);
}

/** The emails claimed by some worker now (their lease runs), by the Message-ID they go out with. */
async function heldNow(url: string): Promise<Set<string>> {
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  const { rows } = await sql.query<{ id: string }>(
    `select smtp_message_id as id from emails where lease_until > now() and status = any('{queued,deferred}'::text[])`,
  );
  await sql.end();
  return new Set(rows.map((r) => r.id));
}

async function round(workers: number, kill: boolean): Promise<Round> {
  const url = await freshDatabase(`scale_${workers}_${kill ? 'kill' : 'plain'}`);
  const env = serviceEnv({ dbUrl: url, dir, appSecret: APP_SECRET, token }, { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, WEBHOOK_ALLOW_PRIVATE: 'true' });
  const hookPath = `/hooks/${workers}/${kill ? 'kill' : 'plain'}`;
  const apis: RoleProcess[] = [];
  for (let i = 0; i < APIS; i++) apis.push(await spawnRole('api', env));
  running.push(...apis);
  const domain = await setup(apis[0], url, hookPath);
  const sinkFrom = sink.received.length;

  const [api0, pg0, wal0] = [apis.reduce((n, a) => n + cpuSeconds(a.pid), 0), postgresCpu(postmaster), await walBytes()];
  await accept(apis, domain.name);
  await sleep(500);
  const [apiCpu, pgAccept, walAccept] = [apis.reduce((n, a) => n + cpuSeconds(a.pid), 0) - api0, postgresCpu(postmaster) - pg0, (await walBytes()) - wal0];

  const [pg1, wal1] = [postgresCpu(postmaster), await walBytes()];
  const started = Date.now();
  const fleet: RoleProcess[] = [];
  for (let i = 0; i < workers; i++) fleet.push(await spawnRole('worker', env, 0));
  running.push(...fleet);
  const distinct = () => new Set(copiesSince(sinkFrom)).size;
  const events = () => new Set(receiver.received(hookPath).filter((r) => r.json?.type === 'activity.delivered').map((r) => String(r.headers['webhook-id']))).size;

  let takeoverS: number | null = null;
  let killedCpu = 0;
  const takeover = (async () => {
    if (!kill) return;
    while (distinct() < messages / 3) await sleep(5);
    const held = await heldNow(url);
    const victim = fleet[0];
    killedCpu = cpuSeconds(victim.pid);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    if (workers === 1) {
      const replacement = await spawnRole('worker', env, 0);
      fleet.push(replacement);
      running.push(replacement);
    }
    while (copiesSince(sinkFrom).filter((id) => held.has(id)).length < held.size && Date.now() - killedAt < DRAIN_LIMIT_MS) await sleep(20);
    takeoverS = (Date.now() - killedAt) / 1000;
  })();
  let mailS = 0;
  while ((distinct() < messages || events() < messages) && Date.now() - started < DRAIN_LIMIT_MS) {
    if (!mailS && distinct() >= messages) mailS = (Date.now() - started) / 1000;
    await sleep(5);
  }
  const drainS = (Date.now() - started) / 1000;
  mailS ||= drainS;
  await takeover;
  const workerCpu = killedCpu + fleet.reduce((n, w) => n + cpuSeconds(w.pid), 0);
  const [pgDrain, walDrain] = [postgresCpu(postmaster) - pg1, (await walBytes()) - wal1];
  // A duplicate, if any, has the time to arrive.
  await sleep(2000);
  for (const p of [...fleet, ...apis]) await p.stop();
  const copies = copiesSince(sinkFrom);
  const perMsg = (s: number) => Math.round((s * 1000 * 100) / messages) / 100;
  return {
    lost: messages - new Set(copies).size,
    duplicates: copies.length - new Set(copies).size,
    webhookEvents: events(),
    drainS: Math.round(drainS * 10) / 10,
    mailS: Math.round(mailS * 10) / 10,
    takeoverS: takeoverS === null ? null : Math.round((takeoverS as number) * 10) / 10,
    apiCpuMs: perMsg(apiCpu),
    workerCpuMs: perMsg(workerCpu),
    pgAcceptCpuMs: perMsg(pgAccept),
    pgDrainCpuMs: perMsg(pgDrain),
    walAcceptBytes: Math.round(walAccept / messages),
    walDrainBytes: Math.round(walDrain / messages),
  };
}

const figures: Record<string, number> = { messages, api_processes: APIS };
try {
  for (let n = 1; n <= maxWorkers; n++) {
    const plain = await round(n, false);
    const killed = await round(n, true);
    console.log(`${n} worker(s): ${JSON.stringify({ plain, killed })}`);
    Object.assign(figures, {
      [`lost_w${n}`]: plain.lost + killed.lost,
      [`duplicates_w${n}`]: plain.duplicates + killed.duplicates,
      [`webhook_events_w${n}`]: Math.min(plain.webhookEvents, killed.webhookEvents),
      [`drain_s_without_kill_w${n}`]: plain.drainS,
      [`drain_s_with_kill_w${n}`]: killed.drainS,
      [`takeover_s_w${n}`]: killed.takeoverS ?? -1,
      [`worker_cpu_ms_per_msg_w${n}`]: plain.workerCpuMs,
      [`postgres_drain_cpu_ms_per_msg_w${n}`]: plain.pgDrainCpuMs,
    });
    if (n === 1) {
      Object.assign(figures, {
        api_cpu_ms_per_msg: plain.apiCpuMs,
        postgres_accept_cpu_ms_per_msg: plain.pgAcceptCpuMs,
        wal_bytes_per_accept: plain.walAcceptBytes,
        wal_bytes_per_delivery: plain.walDrainBytes,
        // What one core of PostgreSQL absorbs end to end (accepted, delivered, one webhook event each) when its CPU is the limit.
        primary_msgs_per_core_s: Math.round(1000 / (plain.pgAcceptCpuMs + plain.pgDrainCpuMs)),
      });
    }
  }
  console.log(`${os.cpus().length} cores (${os.cpus()[0]?.model.trim()})`);
  printBench(figures);
} finally {
  await admin.end();
  await receiver.close();
  await teardown({ running, sink, sql: { end: async () => undefined }, db, dir });
}

/**
 * The fault run: messages flow from POST /v1/email through a worker to a local SMTP sink, with a
 * webhook on `activity.sent` and `activity.delivered` pointing at a local HTTP receiver, while
 *   - the worker process is SIGKILLed again and again (and started again),
 *   - PostgreSQL (embedded, its own cluster) is stopped and started again mid-run,
 *   - the sink turns slow (each message held before its 250) and then failing (451 after DATA).
 * Then, with the faults over, everything must drain:
 *   - every accepted message (a 202) reaches the sink, and none twice, except a message whose
 *     first copy the sink had when its worker was killed before recording it: the SMTP duplicate
 *     window (RFC 1047) no sender closes. The window is measured (250 to recorded, over the emails
 *     sent once). A duplicate counts as the window's when a kill fell between the client beginning
 *     its first copy and the end of the window after that copy's 250 (or after PostgreSQL came
 *     back, when a restart cut the recording); any other duplicate fails the run;
 *   - every email's two webhook events reach the receiver at least once, every copy of one event
 *     with the same `webhook-id` and a valid signature;
 *   - nothing is stuck: no email pending, no delivery job left, no webhook delivery pending.
 * The API and the worker are separate processes (dist/src/main.api.js and main.worker.js, so `npm run build` first);
 * the API is never killed, and a send it refuses while PostgreSQL is down is sent again by the
 * client, as a real client does on a 5xx.
 * Used by bench/faults.ts (npm run bench:faults) and, bounded, by test/reliability/faults.test.ts.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDb } from '../src/db/embedded.js';
import { startReceiver } from '../test/support/receiver.js';
import { startSmtpSink, type SmtpSink } from '../test/support/smtp-sink.js';
import { NO_API_LIMITS } from './limits.js';

export interface FaultOptions {
  messages: number;
  /** Worker kills before the run lets the system drain. */
  kills: number;
  /** Client connections sending at once. */
  senders: number;
  /** Sends started per second at most. */
  ratePerSecond: number;
  pgPort?: number;
  /** How long the drain may take before the run calls something stuck. */
  drainTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface FaultReport {
  accepted: number;
  refusedWhileDown: Record<string, number>;
  kills: number;
  pgRestarts: number;
  pgDownMs: number;
  sinkDeferrals: number;
  sinkCopies: number;
  delivered: number;
  lost: string[];
  duplicatesInWindow: string[];
  duplicatesUnexplained: string[];
  /** From the sink's 250 to the delivery recorded, ms: p50, p99, max (the SMTP duplicate window). */
  recordLatencyMs: { p50: number; p99: number; max: number };
  webhookEventsExpected: number;
  webhookEventsReceived: number;
  webhookRedeliveries: number;
  webhookIdsUnstable: string[];
  webhookBadSignatures: number;
  stuck: Record<string, number>;
  acceptSeconds: number;
  drainSeconds: number;
  workerCrashes: string[];
  workerRssMbMax: number;
  apiRssMbMax: number;
  failures: string[];
}

const TOKEN = 'mlsn.fault-run-admin-token-0000000000000000000000000000000000000';
const APP_SECRET = 'fault-run-app-secret-000000000000000000000000000000000';
const WORKER_RECOVERY = { JOB_SUPERVISE_SECONDS: '2', DELIVERY_RETRY_DELAY_SECONDS: '1', DELIVERY_RETRY_LIMIT: '20' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** A message as the sink got it: `mailAt` the client began it (MAIL FROM), `at` the sink's 250. */
interface Copy {
  messageId: string;
  mailAt: number;
  at: number;
}

/** The sink's messages as copies, parsed once each; `distinct` counts Message-IDs. */
function copiesOf(sink: SmtpSink) {
  const copies: Copy[] = [];
  const ids = new Set<string>();
  return () => {
    for (let i = copies.length; i < sink.received.length; i++) {
      const m = sink.received[i];
      const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(m.raw.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '';
      copies.push({ messageId, mailAt: m.mailAt, at: m.at });
      ids.add(messageId);
    }
    return { copies, distinct: ids.size };
  };
}

export async function runFaults(opts: FaultOptions): Promise<FaultReport> {
  const log = opts.log ?? (() => undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-faults-'));
  const pgPort = opts.pgPort ?? (await freePort());
  const failures: string[] = [];
  const children: ChildProcess[] = [];
  let db: EmbeddedDb | null = null;
  let finished = false;
  const sink = await startSmtpSink();
  const atTheSink = copiesOf(sink);
  const receiver = await startReceiver();
  // The customer's receiver answers 200 after a short pause, so kills can land mid-request.
  receiver.respond('/hooks', { status: 200, delayMs: 10 });
  // Webhook events; the registration's test request is signed with the test secret instead.
  const events = () => receiver.received('/hooks').filter((r) => r.json?.type !== 'webhook.test');
  try {
    db = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: pgPort });
    const dbUrl = db.url;
    const apiPort = await freePort();
    const baseEnv = {
      ...process.env,
      DATABASE_URL: dbUrl,
      DATA_DIR: dir,
      APP_SECRET,
      ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'fatal',
      HOST: '127.0.0.1',
      DOMAIN_REQUIRE_DNS: 'false',
      // The worker delivers to a real SMTP sink: no sandbox, domains verified (below) as by DNS.
      DOMAIN_VERIFICATION: 'dns',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...NO_API_LIMITS,
      ...WORKER_RECOVERY,
    };
    const stderrTails = new Map<ChildProcess, string>();
    const spawnRole = (role: 'api' | 'worker', extra: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [`dist/src/main.${role}.js`], {
        env: { ...baseEnv, ...extra },
        stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'pipe'],
      });
      // The end of what a process wrote to stderr (a crash's stack), kept for the report of an exit.
      stderrTails.set(child, '');
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderrTails.set(child, (stderrTails.get(child)! + chunk).slice(-2000)));
      children.push(child);
      return child;
    };
    const api = spawnRole('api', { PORT: String(apiPort) });
    let apiExited = false;
    api.once('exit', () => (apiExited = true));
    const base = `http://127.0.0.1:${apiPort}`;
    for (let i = 0; ; i++) {
      if (apiExited) throw new Error('the api process exited while starting');
      const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 600) throw new Error('the api process did not start');
      await sleep(100);
    }
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };

    // A customer's setup: a sending domain (real DKIM key) and a webhook. DNS is offline here,
    // so the domain is marked verified in the database.
    const domain = (await call('POST', '/v1/domains', { name: 'faults.example.com' })).data as { id: string; name: string };
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    await admin.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
    await admin.end();
    const webhook = (await call('POST', '/v1/webhooks', {
      url: receiver.url('/hooks'),
      name: 'fault run',
      events: ['activity.sent', 'activity.delivered'],
      domain_id: domain.id,
      enabled: true,
    })).data as { id: string; secret: string };
    receiver.secretFor('/hooks', webhook.secret);

    const workerEnv = { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, DELIVERY_TIMEOUT_MS: '10000' };
    // A worker that exits by itself is a finding; like a supervisor (systemd), the run starts another.
    const crashes: string[] = [];
    let worker: ChildProcess;
    const startWorker = () => {
      const child = spawnRole('worker', workerEnv);
      // On close, not exit: what the process wrote to stderr last (its crash) may still be on its way at exit.
      child.once('close', (code, signal) => {
        if (signal === 'SIGKILL' || finished) return;
        const tail = stderrTails.get(child)?.trim();
        crashes.push(`exit ${code ?? signal}${tail ? `: ${tail}` : ''}`);
        log(`worker exited by itself (${code ?? signal}); starting another`);
        setTimeout(() => {
          if (!finished && worker === child) worker = startWorker();
        }, 500);
      });
      return child;
    };
    worker = startWorker();
    let workerRssMbMax = 0;
    let apiRssMbMax = 0;
    const rssTimer = setInterval(() => {
      workerRssMbMax = Math.max(workerRssMbMax, rssMb(worker.pid));
      apiRssMbMax = Math.max(apiRssMbMax, rssMb(api.pid));
    }, 250);

    // The client: `senders` connections, each sending the next message, again after a refusal.
    const accepted = new Map<number, string>();
    const refusedWhileDown: Record<string, number> = {};
    let next = 0;
    const started = Date.now();
    const sendOne = async (i: number) => {
      // A minute of refusals gives up on the message: the run then fails on the count, not a hang.
      for (let tries = 0; tries < 300; tries++) {
        let status = 'network error';
        try {
          const res = await fetch(`${base}/v1/email`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              from: { email: `faults@${domain.name}`, name: 'Fault run' },
              to: [{ email: `r${i}@example.net` }],
              subject: `Fault run ${i}`,
              text: `Message ${i}`,
              html: `<p>Message ${i}</p>`,
            }),
          });
          await res.text();
          if (res.status === 202) {
            accepted.set(i, res.headers.get('x-message-id')!);
            return;
          }
          status = res.status === 503 && !res.headers.get('retry-after') ? '503 without retry-after' : String(res.status);
        } catch {
          // The API is never killed: a network error here is a finding, counted like a refusal.
        }
        refusedWhileDown[status] = (refusedWhileDown[status] ?? 0) + 1;
        await sleep(200);
      }
    };
    const sending = Promise.all(
      Array.from({ length: opts.senders }, async () => {
        while (next < opts.messages) {
          const i = next++;
          // Paced, so that the faults meet traffic that is still flowing in.
          const due = started + (i / opts.ratePerSecond) * 1000;
          if (due > Date.now()) await sleep(due - Date.now());
          await sendOne(i);
        }
      }),
    ).then(() => Date.now());

    // The faults, keyed to the client's progress so a short run meets them all too.
    const progress = () => accepted.size / opts.messages;
    const waitFor = async (cond: () => boolean) => {
      while (!cond()) await sleep(50);
    };
    let kills = 0;
    const killTimes: number[] = [];
    let stopKilling = false;
    const killer = (async () => {
      await waitFor(() => accepted.size > 0);
      const gap = Math.max(1500, Math.min(5000, ((opts.messages / opts.ratePerSecond) * 1000) / Math.max(1, opts.kills)));
      while (!stopKilling && kills < opts.kills) {
        await sleep(gap * (0.6 + Math.random() * 0.8));
        if (stopKilling) break;
        const dying = worker;
        killTimes.push(Date.now());
        dying.kill('SIGKILL');
        await new Promise((r) => (dying.exitCode !== null || dying.signalCode !== null ? r(null) : dying.once('exit', r)));
        kills++;
        log(`kill ${kills} at ${accepted.size} accepted, ${sink.received.length} at the sink`);
        await sleep(200 + Math.random() * 600);
        worker = startWorker();
        // The next kill lands once this worker is delivering (or after 15 s, as when the sink fails).
        const atSink = sink.received.length;
        const since = Date.now();
        await waitFor(() => stopKilling || sink.received.length >= atSink + 5 || Date.now() - since > 15_000);
      }
    })();
    let pgRestarts = 0;
    const pgStops: number[] = [];
    const pgDowntimes: [number, number][] = [];
    let pgDownMs = 0;
    // The phases follow the traffic: the sink turns slow once mail reaches it, PostgreSQL restarts
    // while the API is still accepting (and the worker delivering), the sink fails once a third
    // has arrived. Phases are short: a slow sink takes a worker to 10 messages/s.
    const atSink = () => atTheSink().distinct / opts.messages;
    const chaos = (async () => {
      await waitFor(() => atSink() >= 0.05);
      sink.holdMs = 400;
      log(`sink slow at ${sink.received.length} at the sink`);
      await sleep(5000);
      sink.holdMs = 0;
      log('sink ok');
      await waitFor(() => progress() >= 0.5);
      log(`postgres stopping at ${accepted.size} accepted, ${sink.received.length} at the sink`);
      const down = Date.now();
      pgStops.push(down);
      await db!.stop();
      await sleep(2000);
      db = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: pgPort });
      pgDownMs = Date.now() - down;
      pgDowntimes.push([down, Date.now()]);
      pgRestarts++;
      log(`postgres back after ${pgDownMs} ms`);
      await waitFor(() => atSink() >= 0.3);
      sink.failData = 451;
      log(`sink failing at ${sink.received.length} at the sink`);
      await sleep(3000);
      // At least one message must have met the failing sink (a worker killed or restarting can
      // spend the whole 3 s away from it); as long as any is still to deliver, it keeps failing.
      const failingSince = Date.now();
      await waitFor(() => sink.dataFailures > 0 || atSink() >= 1 || Date.now() - failingSince > 30_000);
      sink.failData = 0;
      log('sink ok');
    })();

    const acceptedAt = await sending;
    await chaos;
    // Kills go on into the drain until the wanted number is reached.
    await killer;
    stopKilling = true;
    log(`all ${accepted.size} accepted; draining`);

    // Drain: wait until the sink and the receiver hold everything, then until nothing is pending.
    const watch = new pg.Client({ connectionString: db!.url });
    await watch.connect();
    const deadline = Date.now() + (opts.drainTimeoutMs ?? 5 * 60_000);
    const messageIds = [...accepted.values()];
    const expectedEvents = messageIds.length * 2;
    const stuckNow = async () => {
      const q = async (sqlText: string, params: unknown[] = []) => Number((await watch.query(sqlText, params)).rows[0].n);
      return {
        emails_not_delivered: await q(`select count(*) n from emails where message_id = any($1) and status <> 'delivered'`, [messageIds]),
        messages_not_sent: await q(`select count(*) n from messages where id = any($1) and status <> 'sent'`, [messageIds]),
        delivery_jobs_left: await q(`select count(*) n from pgboss.job where name = 'email.deliver' and state in ('created', 'retry', 'active')`),
        webhook_deliveries_pending: await q(`select count(*) n from webhook_deliveries where webhook_id = $1 and state <> 'delivered'`, [webhook.id]),
        events_not_dispatched: await q(
          `select count(*) n from domain_events e where e.domain_id = $1 and e.type in ('activity.sent', 'activity.delivered')
             and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.webhook_id = $2)`,
          [domain.id, webhook.id],
        ),
      };
    };
    let stuck = await stuckNow();
    const eventKey = (r: ReturnType<typeof events>[number]) => `${r.json?.type}:${r.json?.data?.email_id}`;
    const eventKeys = () => new Set(events().map(eventKey)).size;
    while (Date.now() < deadline) {
      stuck = await stuckNow();
      if (Object.values(stuck).every((n) => n === 0) && eventKeys() >= expectedEvents) break;
      await sleep(500);
    }
    const drainedAt = Date.now();
    // A late duplicate, were there one, gets the time to arrive.
    await sleep(2000);
    stuck = await stuckNow();
    finished = true;
    clearInterval(rssTimer);

    // Exactly once at the sink, checked against the emails' recorded Message-IDs.
    const rows = (await watch.query<{ message_id: string; smtp_message_id: string | null; recorded_at: string }>(
      `select message_id, smtp_message_id, extract(epoch from updated_at) * 1000 as recorded_at from emails where message_id = any($1)`,
      [messageIds],
    )).rows;
    await watch.end();
    const copiesOf = new Map<string, Copy[]>();
    for (const c of atTheSink().copies) copiesOf.set(c.messageId, [...(copiesOf.get(c.messageId) ?? []), c]);
    // A copy whose recording a PostgreSQL downtime cut could be recorded only once it was back.
    const cutBy = (from: number, to: number) => pgDowntimes.find(([down, up]) => down <= to && from <= up);
    // The SMTP duplicate window, measured: how long a worker took from the sink's 250 to recording
    // the delivery, over the emails sent once and not cut by the restart. Under load the window
    // stretches, so it is measured, not assumed.
    const recordLatency = rows
      .map((r) => {
        const at = r.smtp_message_id ? copiesOf.get(r.smtp_message_id) : undefined;
        if (at?.length !== 1 || cutBy(at[0].at, Number(r.recorded_at))) return null;
        return Number(r.recorded_at) - at[0].at;
      })
      .filter((n): n is number => n !== null)
      .sort((a, b) => a - b);
    const pct = (q: number) => Math.round(recordLatency[Math.min(recordLatency.length - 1, Math.floor(q * recordLatency.length))] ?? 0);
    const windowMs = Math.max(1000, pct(1));
    const lost: string[] = [];
    const duplicatesInWindow: string[] = [];
    const duplicatesUnexplained: string[] = [];
    for (const row of rows) {
      const at = row.smtp_message_id ? copiesOf.get(row.smtp_message_id) : undefined;
      if (!at) {
        lost.push(row.message_id);
        continue;
      }
      if (at.length > 1) {
        // Each copy but the last must have met a kill between the client beginning the message
        // (data a killed client had written still reaches the server, which delivers a complete
        // message whether or not its 250 reached anyone: RFC 1047) and the end of the window after
        // its 250, or after PostgreSQL came back if a downtime cut the recording.
        const explained = at.slice(0, -1).every((c) => {
          // The worker retries the recording every second at most once PostgreSQL is back.
          const cut = cutBy(c.at, c.at + windowMs);
          const until = (cut ? cut[1] + 1000 : c.at) + windowMs;
          return killTimes.some((k) => k >= c.mailAt && k <= until);
        });
        (explained ? duplicatesInWindow : duplicatesUnexplained).push(row.smtp_message_id!);
        const rel = (t: number) => ((t - started) / 1000).toFixed(2);
        log(`duplicate ${row.smtp_message_id}: copies at ${at.map((c) => rel(c.at)).join(', ')} s; kills at ${killTimes.map(rel).join(', ')} s; postgres down at ${pgStops.map(rel).join(', ')} s`);
      }
    }
    // A copy the database knows nothing of: an email sent under a Message-ID it never recorded.
    const known = new Set(rows.map((r) => r.smtp_message_id));
    for (const id of copiesOf.keys()) if (!known.has(id)) duplicatesUnexplained.push(id);

    // At least once, stable ids, valid signatures.
    const idsByEvent = new Map<string, Set<string>>();
    const delivered = events();
    for (const r of delivered) {
      idsByEvent.set(eventKey(r), (idsByEvent.get(eventKey(r)) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    // Both signatures (`Signature` and Standard Webhooks) must verify with the webhook's secret.
    const badSignatures = delivered.filter((r) => !r.verified).length;
    const webhookIdsUnstable = [...idsByEvent].filter(([, ids]) => ids.size > 1).map(([k]) => k);
    const distinctDeliveries = new Set(delivered.map((r) => r.headers['webhook-id'])).size;

    const report: FaultReport = {
      accepted: accepted.size,
      refusedWhileDown,
      kills,
      pgRestarts,
      pgDownMs,
      sinkDeferrals: sink.dataFailures,
      sinkCopies: sink.received.length,
      delivered: rows.length - lost.length,
      lost,
      duplicatesInWindow,
      duplicatesUnexplained,
      recordLatencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
      webhookEventsExpected: expectedEvents,
      webhookEventsReceived: idsByEvent.size,
      webhookRedeliveries: delivered.length - distinctDeliveries,
      webhookIdsUnstable,
      webhookBadSignatures: badSignatures,
      stuck,
      acceptSeconds: (acceptedAt - started) / 1000,
      drainSeconds: (drainedAt - started) / 1000,
      workerCrashes: crashes,
      workerRssMbMax,
      apiRssMbMax,
      failures,
    };
    if (report.accepted !== opts.messages) failures.push(`${report.accepted} of ${opts.messages} accepted`);
    if (apiExited) failures.push('the api process exited during the run');
    // While PostgreSQL is down the API must say so (503 with retry-after), not fail (500).
    for (const [status, n] of Object.entries(refusedWhileDown)) if (status !== '503') failures.push(`${n} send(s) answered ${status} while the database was down`);
    if (lost.length) failures.push(`${lost.length} accepted message(s) never reached the sink`);
    if (duplicatesUnexplained.length) failures.push(`${duplicatesUnexplained.length} duplicate(s) outside the SMTP window`);
    if (report.webhookEventsReceived < expectedEvents) failures.push(`${report.webhookEventsReceived} of ${expectedEvents} webhook events received`);
    if (webhookIdsUnstable.length) failures.push(`${webhookIdsUnstable.length} event(s) arrived under more than one webhook-id`);
    if (badSignatures) failures.push(`${badSignatures} webhook request(s) with a bad signature`);
    for (const [what, n] of Object.entries(stuck)) if (n) failures.push(`stuck: ${n} ${what}`);
    if (crashes.length) failures.push(`the worker exited by itself ${crashes.length} time(s): ${crashes.join(', ')}`);
    if (kills < opts.kills) failures.push(`only ${kills} of ${opts.kills} kills`);
    return report;
  } finally {
    finished = true;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await sink.close();
    await receiver.close();
    await db?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

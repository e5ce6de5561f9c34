/**
 * What accepting and delivering a send costs, every figure from one run on a throwaway embedded
 * PostgreSQL. The service runs as separate processes (bench/service.ts): the api role alone for
 * acceptance, then api + worker for delivery; autocannon, the SMTP sink and the baselines run in
 * this process.
 *   baseline       POST /send on a bare fastify route in this process, its own pg Pool (10) to the
 *                  same database, doing acceptSend's writes as separate statements in one
 *                  transaction (message, recipient upsert, email, pg-boss job, `queued` activity
 *                  with its daily rollup), without auth, validation, ORM or GraphQL
 *   single insert  the same route doing one INSERT of the message: the floor of one durable write
 *   rest           POST /v1/email            (api role only: no worker competes for the CPU)
 *   graphql        POST /graphql send_email  (the same send)
 * Then with a worker process and MAIL_TRANSPORT pointing at a local SMTP sink: N sends accepted as
 * fast as 50 connections go, timed until the sink holds all N (end to end); then the drain: N more
 * accepted while the worker is stopped, timed from its resumption until the sink holds them; and
 * the delivery baseline: the same
 * N messages, built and DKIM-signed by the service's own MIME builder, sent by this process through
 * one pooled nodemailer transport to the same sink. The drain and the baseline run 3 times each,
 * alternated, and each side's best run counts (as in bench:webhooks).
 * Every send has one recipient (a new address each time, as real traffic has), subject, html, text.
 * Ends with one line `BENCH {...}`.
 * Usage: npm run bench:sending [-- seconds [messages]]   (default 8 s per scenario, 2000 messages)
 */
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { decrypt } from '../src/lib/secrets.js';
import { startSmtpSink } from '../test/support/smtp-sink.js';
import { peakRssOf, printBench, serviceEnv, sleep, spawnRole, startDb, teardown, type RoleProcess, yearOfWeeks } from './service.js';
import { pooledNodemailerLoop, startBareRoutes } from './sending-bare.js';

const seconds = Number(process.argv[2] ?? 8);
const messages = Number(process.argv[3] ?? 2000);
/** Runs of the drain, each beside a run of the bare loop; each side's best counts. */
const DRAIN_RUNS = 3;
// The connections of the acceptance target (docs/performance.md, bench:sending).
const connections = 50;
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-send-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const APP_SECRET = 'bench-app-secret-0000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

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

interface Row {
  name: string;
  rps: number;
  p99: number;
  total: number;
}

async function load(name: string, url: string, body: string, expect: number, opts: Partial<autocannon.Options> = {}): Promise<Row> {
  const r = await autocannon({ url, method: 'POST', headers: auth, body, idReplacement: true, connections, duration: seconds, ...opts });
  const wrong = r.statusCodeStats ? Object.entries(r.statusCodeStats).filter(([code]) => Number(code) !== expect) : [];
  if (wrong.length || r.errors || r.non2xx) throw new Error(`${name}: unexpected answers ${JSON.stringify(wrong)} errors=${r.errors}`);
  // autocannon returns with requests still in flight: let them finish before anything closes.
  await sleep(1000);
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99, total: r.requests.total };
}

async function call(base: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${base}${p}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const db = await startDb(dir);
const sql = new pg.Pool({ connectionString: db.url, max: 2 });
// The database stops before this process exits: an idle client's goodbye is not a failure.
sql.on('error', () => undefined);
// DNS is offline here: the domain is marked verified by hand below, as DNS would (no sandbox:
// the delivery runs send to a real SMTP sink).
const env = (extra: Record<string, string> = {}) => serviceEnv({ dbUrl: db.url, dir, appSecret: APP_SECRET, token }, extra);
const running: RoleProcess[] = [];
const spawn = async (role: string, extra: Record<string, string> = {}) => {
  const p = await spawnRole(role, env(extra));
  running.push(p);
  return p;
};
let sink: Awaited<ReturnType<typeof startSmtpSink>> | null = null;
const cleanup: (() => Promise<unknown>)[] = [];
try {
  let api = await spawn('api');
  if (!process.env.BENCH_WEEKS_NOW_ONLY) await yearOfWeeks(sql);
  const base = api.url!;
  const created = await call(base, 'POST', '/v1/domains', { name: 'bench-sending.example.com' });
  if (created.status !== 201) throw new Error(`create domain: ${created.status} ${JSON.stringify(created.body)}`);
  const domain = created.body.data as { id: string; name: string };
  await sql.query('update domains set is_verified = true, trusted = false where id = $1', [domain.id]);
  const from = `receipts@${domain.name}`;
  const accountId = (await call(base, 'POST', '/graphql', { query: '{ whoami { account_id } }' })).body.data.whoami.account_id as string;
  const bare = await startBareRoutes(db.url, accountId, domain.id);
  cleanup.push(bare.close);
  const restBody = JSON.stringify(content(from));
  const gqlBody = JSON.stringify({ query: SEND_EMAIL, variables: content(from) });

  // The scenarios must really send: one of each, checked, before loading.
  const one = await call(base, 'POST', '/v1/email', JSON.parse(restBody.replace('[<id>]', 'check')));
  if (one.status !== 202 || !one.headers.get('x-message-id')) throw new Error(`POST /v1/email: ${one.status} ${JSON.stringify(one.body)}`);
  const gql = await call(base, 'POST', '/graphql', JSON.parse(gqlBody.replace('[<id>]', 'check2')));
  if (!gql.body?.data?.send_email?.message_id) throw new Error(`send_email: ${JSON.stringify(gql.body)}`);

  await load('warm-up', `${base}/v1/email`, restBody, 202, { duration: 2 });
  await load('warm-up', bare.url, restBody, 202, { duration: 2 });
  const apiRss = peakRssOf({ api: api.pid });
  const rows = [
    await load('baseline: bare route, the same writes as separate statements in one transaction', bare.url, restBody, 202),
    await load('bare route, a single INSERT per request', bare.singleInsertUrl, restBody, 202),
    await load('POST /v1/email', `${base}/v1/email`, restBody, 202),
    await load('POST /graphql `send_email`', `${base}/graphql`, gqlBody, 200),
  ];
  const acceptRss = apiRss.stop();
  const { rows: [{ n }] } = await sql.query<{ n: string }>('select count(*) as n from messages where domain_id = $1', [domain.id]);
  const sent = rows[0].total + rows[2].total + rows[3].total;
  if (Number(n) < sent) throw new Error(`only ${n} messages stored for ${sent} accepted sends`);
  // The next phase runs a worker: the jobs queued above must not be delivered in its figures.
  await sql.query(`delete from pgboss.job where name = 'email.deliver'`);
  // Those accepted with no worker running wait in the job outbox for the relay the worker starts.
  await sql.query(`delete from job_outbox`);
  await Promise.all(cleanup.splice(0).map((c) => c()));

  sink = await startSmtpSink();
  const s = sink;
  // The delivery baseline first, while nothing else runs: the same messages through a pooled transport.
  const { rows: [key] } = await sql.query<{ dkim_selector: string; dkim_private_key_enc: string }>(
    'select dkim_selector, dkim_private_key_enc from domains where id = $1',
    [domain.id],
  );
  const dkim = { domainName: domain.name, keySelector: key.dkim_selector, privateKey: decrypt(APP_SECRET, key.dkim_private_key_enc) };
  const bareRuns = [await pooledNodemailerLoop(s, messages, from, dkim)];

  // Then the service: api and worker as two processes.
  await api.stop();
  api = await spawn('api', { MAIL_TRANSPORT: `smtp://127.0.0.1:${s.port}` });
  const worker = await spawn('worker', { MAIL_TRANSPORT: `smtp://127.0.0.1:${s.port}` });
  const start = s.received.length;
  const deliverRss = peakRssOf({ api: api.pid, worker: worker.pid });
  const t0 = performance.now();
  await load('accept for delivery', `${api.url}/v1/email`, restBody, 202, { duration: 600, amount: messages });
  const accepted = performance.now();
  const atAccepted = s.received.length - start;
  const deadline = Date.now() + 600_000;
  while (s.received.length - start < messages) {
    if (Date.now() > deadline) throw new Error(`${s.received.length - start}/${messages} delivered after 10 minutes`);
    await sleep(20);
  }
  const done = performance.now();
  if (!s.received[start].raw.includes('DKIM-Signature:')) throw new Error('delivered mail is not DKIM-signed');
  const endToEnd = Math.round((messages * 1000) / (done - t0));

  // The drain: a worker that keeps pace with accepting leaves nothing to drain once accepting is
  // done, so the backlog is made apart. N more sends are accepted while the worker is stopped
  // (SIGSTOP: its pools, connections and compiled code stay as the run above left them), then it
  // is resumed and timed until the sink holds all N.
  // DRAIN_RUNS such runs, each after a run of the bare loop but the first (which ran above, alone):
  // a burst of other work on the machine then slows one run of a side, not its figure, which is
  // its best run (as bench:webhooks counts). The worker is stopped while the bare loop runs.
  const drainRuns: number[] = [];
  for (let run = 0; run < DRAIN_RUNS; run++) {
    worker.child.kill('SIGSTOP');
    if (run > 0) bareRuns.push(await pooledNodemailerLoop(s, messages, from, dkim));
    const backlogFrom = s.received.length;
    await load('accept a backlog', `${api.url}/v1/email`, restBody, 202, { duration: 600, amount: messages });
    worker.child.kill('SIGCONT');
    const resumed = performance.now();
    while (s.received.length - backlogFrom < messages) {
      if (Date.now() > deadline) throw new Error(`${s.received.length - backlogFrom}/${messages} of the backlog delivered in time`);
      await sleep(5);
    }
    drainRuns.push(Math.round((messages * 1000) / (performance.now() - resumed)));
  }
  const drain = Math.max(...drainRuns);
  const bareDrain = bareRuns.reduce((a, b) => (b.perS > a.perS ? b : a));
  const deliveryRss = deliverRss.stop();

  const [baseline, single, rest, graphql] = rows;
  console.log(`\n${seconds}s per scenario, ${connections} connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}); service: api role in its own process`);
  console.log('| scenario | req/s | p99 ms | vs baseline |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${(r.rps / baseline.rps).toFixed(2)} |`);
  console.log(`GraphQL/REST: ${(graphql.rps / rest.rps).toFixed(2)}; REST over the single INSERT: ${(rest.rps / single.rps).toFixed(2)}; api peak RSS ${acceptRss.api} MB`);
  console.log(`\naccepted-to-delivered, ${messages} messages, api + worker processes, smtp sink on 127.0.0.1, DKIM-signed`);
  console.log('| path | accepting took s | delivered by then | all delivered after s | msgs/s first accept to last delivery | drain msgs/s | peak RSS MB |\n|---|---|---|---|---|---|---|');
  const runs = (xs: number[]) => `best of ${xs.join(', ')}`;
  console.log(`| bare: the same signed messages through a pooled nodemailer transport | | | ${bareDrain.seconds.toFixed(1)} | | ${bareDrain.perS} (${runs(bareRuns.map((r) => r.perS))}) | |`);
  console.log(
    `| Postbox (api + worker) | ${((accepted - t0) / 1000).toFixed(1)} | ${atAccepted} | ${((done - t0) / 1000).toFixed(1)} | ${endToEnd} | ${drain} (a backlog of ${messages}; ${runs(drainRuns)}) | api ${deliveryRss.api}, worker ${deliveryRss.worker} |`,
  );
  printBench({
    rest_ratio: +(rest.rps / baseline.rps).toFixed(2),
    graphql_ratio: +(graphql.rps / baseline.rps).toFixed(2),
    rest_p99_ratio: +(rest.p99 / baseline.p99).toFixed(2),
    rest_over_single_insert: +(rest.rps / single.rps).toFixed(2),
    drain_msgs_per_s: drain,
    end_to_end_msgs_per_s: endToEnd,
    drain_ratio: +(drain / bareDrain.perS).toFixed(2),
    api_rss_mb: Math.max(acceptRss.api, deliveryRss.api),
    worker_rss_mb: deliveryRss.worker,
  });
} finally {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await teardown({ running, sink, sql, db, dir });
}

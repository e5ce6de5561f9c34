/**
 * Webhook deliveries per second to a local HTTP receiver, against a baseline of the same signed
 * POSTs sent by a bare loop, in the same run.
 *
 *   baseline  a loop posting the same body with the same headers to the receiver, with the same
 *             number in flight (10) and a new connection per request, as postWebhook makes
 *   engine    N internal events for one webhook, turned into deliveries and delivered by the
 *             engine (dispatch, sign, post, log each attempt, account), timed from the first tick
 *             until every delivery is delivered
 * The service runs the api role only and the bench drives the engine's ticks itself, so no
 * worker's own ticks blur the figure.
 * Usage: npm run bench:webhooks [-- events]   (default 2000)
 */
import 'reflect-metadata';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../src/app.js';
import { newId } from '../src/lib/ids.js';
import { runTick } from '../src/modules/webhooks/dispatch.worker.js';
import { signatureHeaders } from '../src/modules/webhooks/sign.js';
import { NO_API_LIMITS } from './limits.js';

const events = Number(process.argv[2] ?? 2000);
const IN_FLIGHT = 10;
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-hooks-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
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
  },
});

async function call(method: string, p: string, body?: unknown) {
  const res = await fetch(`${app.url}${p}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** The same POST a delivery makes, by hand: signed body, no keep-alive. */
function post(body: string, secret: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(receiverUrl, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...signatureHeaders(secret, body, `msg_${newId(24)}`, new Date()) } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end(body);
  });
}

try {
  const domain = (await call('POST', '/v1/domains', { name: `bench-hooks-${newId(6)}.example` })).data;
  const hook = (await call('POST', '/v1/webhooks', { url: receiverUrl, name: 'bench', events: ['activity.delivered'], domain_id: domain.id, enabled: true })).data;
  const em = app.services.orm.em.fork();
  const [{ account_id: accountId }] = await em.execute<{ account_id: string }[]>('select account_id from domains where id = ?', [domain.id]);
  const payload = {
    id: 'x', domain_id: domain.id, message_id: 'm', email_id: 'e', type: 'delivered', subject: 'Your receipt',
    email: 'reader@example.net', tags: [], meta: [], created_at: new Date().toISOString(),
  };
  const body = JSON.stringify({ type: 'activity.delivered', created_at: new Date().toISOString(), data: payload });

  // Baseline: the same requests, IN_FLIGHT at a time.
  received = 0;
  let sent = 0;
  const b0 = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (sent < events) {
      sent++;
      await post(body, hook.secret);
    }
  }));
  const baselineS = (performance.now() - b0) / 1000;

  // The engine: N events in the outbox, then ticks until all are delivered.
  const rows = Array.from({ length: events }, () => ({ id: newId(), payload }));
  await em.execute(
    `insert into domain_events (id, account_id, domain_id, type, payload, created_at)
     select x.id, ?, ?, 'activity.delivered', x.payload, now() from jsonb_to_recordset(?::jsonb) as x(id text, payload jsonb)`,
    [accountId, domain.id, JSON.stringify(rows)],
  );
  received = 0;
  const e0 = performance.now();
  for (;;) {
    await runTick(app.services);
    const [{ n }] = await em.execute<{ n: string }[]>(`select count(*) as n from webhook_deliveries where webhook_id = ? and state = 'delivered'`, [hook.id]);
    if (Number(n) >= events) break;
  }
  const engineS = (performance.now() - e0) / 1000;
  const [{ attempts }] = await em.execute<{ attempts: string }[]>(`select count(*) as attempts from webhook_attempts where webhook_id = ? and delivery_id is not null`, [hook.id]);
  if (Number(attempts) !== events || received !== events) throw new Error(`expected ${events} attempts and requests, got ${attempts} and ${received}`);

  const base = events / baselineS;
  const engine = events / engineS;
  console.log(`\n${events} webhook requests, ${IN_FLIGHT} in flight, 2 cores (${os.cpus()[0]?.model ?? 'unknown'})`);
  console.log('| scenario | requests/s | vs baseline |');
  console.log('|---|---|---|');
  console.log(`| baseline: a bare loop posting the same signed body | ${Math.round(base)} | 1.00 |`);
  console.log(`| engine: dispatch, sign, post, log and account each delivery | ${Math.round(engine)} | ${(engine / base).toFixed(2)} |`);
} finally {
  await app.close();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

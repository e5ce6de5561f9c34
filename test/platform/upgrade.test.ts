import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { migrationsList } from '../../src/db/migrations/index.js';
import { createEmptyDatabase, type TestDatabase } from '../support/db.js';
import { startDnsServer, type TestDns } from '../support/dns.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

/**
 * An upgrade as an operator makes one: the code of an earlier commit builds its database and is
 * filled through /v1, with mail queued while no worker runs; then this code starts on the same
 * database. Its migrations apply, every stored resource answers the same on /v1, and the mail
 * queued before the upgrade is delivered after it. The earlier commit is the last one before the
 * changes of running it for real (delivery leases, retention settings, the operator's view).
 */
const EARLIER = 'bdda08dbd01d750da1e227c0477864bd35e5b122';
const ROOT = process.cwd();
const APP_SECRET = 'test-app-secret-0123456789abcdef0123456789';
const QUEUED = 5;

let database: TestDatabase;
let dns: TestDns;
let receiver: Receiver;
let sink: SmtpSink;
let earlier: ChildProcess | null = null;
let api: TestServer | null = null;
let worker: TestServer | null = null;

/** The earlier commit's tree, compiled with this checkout's node_modules (its lockfile is the same); kept between runs. */
function buildEarlier(): string {
  const dir = path.join(os.tmpdir(), `postbox-at-${EARLIER.slice(0, 12)}`);
  if (existsSync(path.join(dir, 'built'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A clone without this commit (a shallow one) cannot run the test: say so rather than pass.
  const archive = execFileSync('git', ['archive', '--format=tar', EARLIER, 'src', 'rest-mapping', 'package.json', 'tsconfig.json', 'tsconfig.build.json'], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // The console and GraphiQL pages it serves are built files, not code.
  symlinkSync(path.join(ROOT, 'console'), path.join(dir, 'console'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(path.join(dir, 'built'), EARLIER);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The earlier commit's api role on the database, as `npm run start:api` runs it. */
async function startEarlier(dir: string): Promise<string> {
  const port = await freePort();
  earlier = spawn(process.execPath, ['dist/src/main.api.js'], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      APP_SECRET,
      ADMIN_TOKEN,
      OPERATOR_TOKEN,
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '1000',
      DOMAIN_VERIFICATION: 'dns',
      DEFAULT_PLAN: 'professional',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (earlier.exitCode !== null) throw new Error(`the earlier commit's api exited with ${earlier.exitCode}`);
    if ((await fetch(`${base}/health`).then((r) => r.status).catch(() => 0)) === 200) return base;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the earlier commit's api did not answer /health");
}

async function stopEarlier(): Promise<void> {
  if (!earlier || earlier.exitCode !== null) return;
  const gone = new Promise((r) => earlier!.once('exit', r));
  earlier.kill('SIGTERM');
  await gone;
}

/** A /v1 call with the admin token; the parsed answer. */
async function v1(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function created(base: string, p: string, body: unknown): Promise<any> {
  const res = await v1(base, 'POST', p, body);
  if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  [database, dns, receiver, sink] = await Promise.all([createEmptyDatabase(), startDnsServer(), startReceiver(), startSmtpSink()]);
}, 60_000);
afterAll(async () => {
  await stopEarlier();
  await worker?.close();
  await api?.app.close();
  await api?.dns.close();
  await Promise.all([receiver?.close(), sink?.close(), dns?.close()]);
  await database?.drop();
});

/** An answer with the address of the process that gave it taken out (pagination links carry it). */
const placeless = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/http:\/\/(localhost|127\.0\.0\.1):\d+/g, 'BASE'));

/** What is read back on both sides of the upgrade. */
function readsOf(ids: Record<string, string>, messages: string[]): string[] {
  return [
    '/domains', `/domains/${ids.domain}`, `/domains/${ids.domain}/dns-records`, `/domains/${ids.domain}/smtp-users`,
    `/domains/${ids.domain}/smtp-users/${ids.smtpUser}`, `/domains/${ids.domain}/recipients`,
    '/identities', `/identities/${ids.identity}`, '/templates', `/templates/${ids.template}`,
    `/webhooks?domain_id=${ids.domain}`, `/webhooks/${ids.webhook}`, '/inbound', `/inbound/${ids.inbound}`, '/token', `/token/${ids.token}`,
    `/suppressions/blocklist?domain_id=${ids.domain}`, `/suppressions/hard-bounces?domain_id=${ids.domain}`,
    '/recipients', '/messages', ...messages.map((m) => `/messages/${m}`), '/message-schedules', `/message-schedules/${ids.scheduled}`,
  ];
}

it('upgrades a database built and filled by an earlier commit: migrations apply, resources answer the same, queued mail is delivered', async () => {
  const base = await startEarlier(buildEarlier());
  const name = `upgrade-${Date.now()}.example.test`;
  dns.addName(name);
  const domain = (await created(base, '/domains', { name })).data;
  const records = (await v1(base, 'GET', `/domains/${domain.id}/dns-records`)).body.data;
  dns.add(records.spf.hostname, { type: 'TXT', data: records.spf.value });
  dns.add(records.dkim.hostname, { type: 'TXT', data: records.dkim.value });
  dns.add(records.return_path.hostname, { type: 'CNAME', domain: records.return_path.value });
  expect((await v1(base, 'GET', `/domains/${domain.id}/verify`)).status).toBe(200);
  expect((await v1(base, 'GET', `/domains/${domain.id}`)).body.data.is_verified).toBe(true);

  receiver.secretFor('*', 'postbox-webhook-test-signing-secret');
  const ids: Record<string, string> = {
    domain: domain.id,
    smtpUser: (await created(base, `/domains/${domain.id}/smtp-users`, { name: 'relay', enabled: true })).data.id,
    identity: (await created(base, '/identities', { domain_id: domain.id, email: `desk@${name}`, name: 'Desk' })).data.id,
    template: (await created(base, '/templates', { name: 'Welcome', html: '<p>Hi {{ name }}</p>', text: 'Hi {{ name }}', domain_id: domain.id })).data.id,
    webhook: (await created(base, '/webhooks', { url: receiver.url('/hook'), name: 'hook', events: ['activity.delivered'], domain_id: domain.id, enabled: true })).data.id,
    inbound: (await created(base, '/inbound', { domain_id: domain.id, name: 'desk', domain_enabled: false, forwards: [{ type: 'email', value: 'desk@example.net' }] })).data.id,
    token: (await created(base, '/token', { name: 'ci', scopes: ['email_full', 'domains_read'], domain_id: domain.id })).data.id,
  };
  await created(base, '/suppressions/blocklist', { domain_id: domain.id, recipients: ['blocked@example.net'] });
  await created(base, '/suppressions/hard-bounces', { domain_id: domain.id, recipients: ['gone@example.net'] });

  // Mail accepted while no worker runs: it waits in the queue across the upgrade.
  const messages: string[] = [];
  for (let i = 0; i < QUEUED; i++) {
    const res = await fetch(`${base}/v1/email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: { email: `desk@${name}` }, to: [{ email: `r${i}@example.net` }], subject: `before ${i}`, template_id: ids.template, personalization: [{ email: `r${i}@example.net`, data: { name: `R${i}` } }] }),
    });
    expect(res.status).toBe(202);
    messages.push(res.headers.get('x-message-id')!);
  }
  const scheduled = await fetch(`${base}/v1/email`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: { email: `desk@${name}` }, to: [{ email: 'later@example.net' }], subject: 'scheduled', text: 'later', send_at: Math.floor(Date.now() / 1000) + 20 }),
  });
  expect(scheduled.status).toBe(202);
  ids.scheduled = scheduled.headers.get('x-message-id')!;

  const reads = readsOf(ids, messages);
  const before = new Map<string, unknown>();
  for (const p of reads) {
    const res = await v1(base, 'GET', p);
    expect({ p, status: res.status }).toEqual({ p, status: 200 });
    before.set(p, placeless(res.body));
  }
  await stopEarlier();

  // This code on the same database: the api first, so the reads come before any delivery.
  const env = { APP_SECRET, DEFAULT_PLAN: 'professional', WEBHOOK_ALLOW_PRIVATE: 'true', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` };
  api = await startTestServer({ roles: ['api'], database: { url: database.url, drop: async () => undefined }, env });
  const applied = ((await api.app.services.orm.em.fork().execute('select name from mikro_orm_migrations')) as { name: string }[]).map((r) => r.name);
  expect(applied).toEqual(expect.arrayContaining(migrationsList.map((m) => m.name)));
  for (const p of reads) {
    const res = await api.rest('GET', p);
    expect({ p, status: res.status, body: placeless(res.body) }).toEqual({ p, status: 200, body: before.get(p) });
  }

  // Then a worker: the mail queued before the upgrade goes out.
  worker = await startTestServer({ roles: ['worker'], database: { url: database.url, drop: async () => undefined }, env });
  // The sends, and the service's own mail queued with them (the identity's and the inbound
  // route's confirmations).
  const expected = [...Array.from({ length: QUEUED }, (_, i) => `before ${i}`), 'scheduled', 'Confirm forwarding of inbound mail', 'Confirm your sender identity'].sort();
  const subjects = () => sink.received.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim()).sort();
  const deadline = Date.now() + 60_000;
  while (subjects().length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(subjects()).toEqual(expected);
  expect(sink.received.find((m) => m.raw.includes('Subject: before 0'))!.raw).toContain('Hi R0');
  await receiver.waitFor((all) => all.filter((r) => r.json?.type === 'activity.delivered').length >= QUEUED + 1, 30_000);
}, 300_000);

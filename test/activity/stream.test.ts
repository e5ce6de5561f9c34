import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';

/**
 * `subscription { activity(domain_id) }` over SSE: the API process holds the stream while a worker
 * running as its own process (dist/src/main.worker.js, built by `npm test`) delivers the
 * mail; its activity reaches the stream through Postgres LISTEN/NOTIFY, once committed.
 */
let s: TestServer;
let worker: ChildProcess;
let dataDir: string;
let domain: { id: string; name: string };
let other: { id: string; name: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-stream-'));
  worker = spawn(process.execPath, ['dist/src/main.worker.js'], {
    env: { ...process.env, DATABASE_URL: s.dbUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn', APP_SECRET: s.app.services.config.APP_SECRET },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  domain = await seedDomain(s, { dkim: true });
  other = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  if (worker?.exitCode === null) worker.kill('SIGKILL');
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const QUERY = (domainId: string) =>
  `subscription { activity(domain_id: "${domainId}") { id type email { id subject recipient { email } } } }`;
const send = (d: { name: string }, subject: string) =>
  s.rest('POST', '/email', { body: { from: { email: `live@${d.name}` }, to: [{ email: `x${Date.now()}@example.net` }], subject, text: 'x' } });
const items = (e: any) => (e.data?.activity ?? []) as { type: string; email: { subject: string } }[];

it('streams the domain\'s activity, including what the worker process records', async () => {
  const stream = await subscribe(s, QUERY(domain.id), ADMIN_TOKEN);
  try {
    await stream.live(
      (n) => send(domain, `probe ${n}`),
      (e) => items(e).some((a) => a.type === 'queued'),
    );
    await send(other, 'elsewhere');
    const res = await send(domain, 'watched');
    expect(res.status).toBe(202);
    // queued comes from the API process; sent and delivered from the worker process.
    const delivered = await stream.next((e) => items(e).some((a) => a.type === 'delivered' && a.email.subject === 'watched'), 20_000);
    // The worker commits outcomes in groups, so one notice may also carry a probe's activity.
    const watched = items(delivered).filter((a) => a.email.subject === 'watched');
    expect(watched.map((a) => a.type)).toEqual(['sent', 'delivered']);
    expect(stream.events.flatMap(items).some((a) => a.email.subject === 'elsewhere')).toBe(false);
  } finally {
    stream.close();
  }
}, 60_000);

it('hears nothing of a domain a domain-limited token may not see, and needs activity_read', async () => {
  const limited = await tokenWith(s, ['activity_read'], other.id);
  const stream = await subscribe(s, QUERY(domain.id), limited);
  const probe = await subscribe(s, QUERY(other.id), limited);
  try {
    await probe.live(
      (n) => send(other, `limited probe ${n}`),
      (e) => items(e).length > 0,
    );
    await send(domain, 'not for the limited token');
    await probe.next((e) => items(e).some((a) => a.type === 'delivered'), 20_000);
    expect(stream.events.flatMap(items)).toEqual([]);
    // Refused when it subscribed, as GET /v1/activity/{domain_id} refuses that token.
    expect(stream.events.map((e) => e.errors?.[0]?.extensions?.code)).toEqual(['FORBIDDEN']);
  } finally {
    stream.close();
    probe.close();
  }
  const weak = await tokenWith(s, ['domains_read']);
  const denied = await subscribe(s, QUERY(domain.id), weak);
  try {
    const first = await denied.next(() => true, 5000);
    expect(first.errors?.[0]?.extensions?.code ?? first.errors?.[0]?.message).toBeTruthy();
  } finally {
    denied.close();
  }
}, 60_000);

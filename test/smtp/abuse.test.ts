import v8 from 'node:v8';
import vm from 'node:vm';
import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sql } from '../sending/helpers.js';
import { rawSmtp } from './raw-client.js';

/**
 * 200 sessions that do not log in, at once, each sending 3 MB: half to a valid report address
 * (limit 1 MB), half to an inbound route (limit 36 MB, within reach: only the shared budget of
 * 64 MB stops them). The listener runs in this process, so the process's memory is its memory,
 * sampled every 250 ms during the attack. Meanwhile an SMTP user still relays.
 *
 * The ceilings, as growth over the level before the attack:
 * - Buffer memory held (arrayBuffers after a full collection): 256 MB. Expected: the budget
 *   (64 MB) + the copies of the messages being processed (at most the budget again) + the stream
 *   buffers of 200 connections (~0.25 MB each). Were every session to hold its whole message,
 *   that alone would pass the ceiling.
 * - Resident set: 640 MB.
 *
 * The attackers come from 10 loopback addresses, 20 each: SMTP_MAX_CONNECTIONS_PER_ADDRESS (20)
 * lets no more in from one address. SMTP_MAX_CLIENTS is raised above 200 here only so that the
 * SMTP user gets a place during the attack.
 */
const MB = 1024 * 1024;
const SESSIONS = 200;
const ADDRESSES = 10;
const MESSAGE_BYTES = 3 * MB;
const BUFFER_CEILING = 256 * MB;
const RSS_CEILING = 640 * MB;

let s: TestServer;
let port: number;
let domain: { id: string; name: string };
let inbound: string;
let user: { username: string; password: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'smtp'], env: { SMTP_PORT: '0', SMTP_MAX_CLIENTS: String(SESSIONS + 20) } });
  port = s.app.smtpPort!;
  domain = await seedDomain(s);
  const route = await s.rest('POST', '/inbound', { body: { domain_id: domain.id, name: 'desk', domain_enabled: false, forwards: [{ type: 'email', value: 'desk@example.net' }] } });
  if (route.status !== 201) throw new Error(`inbound: ${route.status} ${route.text}`);
  inbound = route.body.data.address;
  user = (await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'app' } })).body.data;
}, 60_000);
afterAll(() => s?.close());

const relay = () =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, auth: { user: user.username, pass: user.password } })
    .sendMail({ from: `app@${domain.name}`, to: `r${Date.now()}@example.net`, subject: 'during the attack', text: 'still here' });

const LINE = Buffer.from(`${'x'.repeat(1022)}\r\n`);
const CHUNK = Buffer.concat(Array.from({ length: 64 }, () => LINE)); // 64 KB
const randomId = () => Array.from({ length: 16 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');

interface Outcome {
  kind: 'report' | 'inbound';
  /** The code of the last reply: the end of DATA, or the command refused before it. */
  code: string;
  reply: string;
}

/**
 * One session: up to RCPT, then waits at `ready` (which it passes once every session got that
 * far, so every RCPT meets an empty budget), then DATA. Says `reached` once in DATA or done.
 */
async function attacker(localAddress: string, kind: Outcome['kind'], ready: () => Promise<void>, reached: () => void): Promise<Outcome> {
  const rcpt = kind === 'report' ? `bounces+${randomId()}@mta.${domain.name}` : inbound;
  const last = (reply: string): Outcome => ({ kind, code: reply.slice(0, 3), reply });
  let said = false;
  const once = () => {
    if (!said) reached();
    said = true;
  };
  let waited = false;
  const wait = () => {
    if (waited) return Promise.resolve();
    waited = true;
    return ready();
  };
  const c = await rawSmtp(port, { localAddress });
  try {
    if (!c.greeting.startsWith('220')) return last(c.greeting);
    await c.send('EHLO attacker.example');
    await c.send('MAIL FROM:<>');
    const rcptReply = await c.send(`RCPT TO:<${rcpt}>`);
    if (!rcptReply.startsWith('250')) return last(rcptReply);
    await wait();
    const go = await c.send('DATA');
    if (!go.startsWith('354')) return last(go);
    once();
    c.write('Subject: big\r\n\r\n');
    await c.pump(CHUNK, MESSAGE_BYTES / CHUNK.length);
    return last(await c.send('.'));
  } finally {
    void wait();
    once();
    c.close();
  }
}

// What the listener holds, not what it has let go of and the collector has not reclaimed yet
// (600 MB pass through, nearly all of it garbage at once): a sample over half a ceiling is taken
// again after a full collection. Collections only then, since each one stops the event loop for
// long on a busy machine.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Peak growth over the level at start: Buffer memory held (after a collection) and the resident set. */
function sampler() {
  gc();
  const base = process.memoryUsage();
  let rss = 0;
  let held = 0;
  const sample = () => {
    let m = process.memoryUsage();
    if (m.arrayBuffers - base.arrayBuffers > BUFFER_CEILING / 2 || m.rss - base.rss > RSS_CEILING / 2) {
      gc();
      m = process.memoryUsage();
    }
    rss = Math.max(rss, m.rss - base.rss);
    held = Math.max(held, m.arrayBuffers - base.arrayBuffers);
  };
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { rss, held };
    },
  };
}

it('holds memory under its ceilings through 200 sessions of 3 MB without login, and keeps relaying', async () => {
  // Warm up the paths the attack takes (and the relay's), so the baseline has them loaded.
  expect((await relay()).response).toMatch(/^250 Message queued as /);
  const before = (await sql(s, 'select count(*)::int as n from inbound_messages'))[0].n;

  // Each attacker says when it is in DATA (or done): once all are, the attack is at its height.
  let reached = 0;
  let height: () => void = () => undefined;
  const atHeight = new Promise<void>((resolve) => (height = resolve));
  const memory = sampler();
  // Addresses .1 to .10 take 20 sessions each; .1 (all reports, as i is even) one more, which is
  // turned away: its 20 are still sending when it comes.
  const plan = Array.from({ length: SESSIONS }, (_, i) => ({ address: `127.0.5.${1 + (i % ADDRESSES)}`, kind: (i % 2 ? 'inbound' : 'report') as Outcome['kind'] }));
  plan.push({ address: '127.0.5.1', kind: 'report' });
  let atRcpt = 0;
  let allAtRcpt: () => void = () => undefined;
  const rcptDone = new Promise<void>((resolve) => (allAtRcpt = resolve));
  const ready = () => {
    if (++atRcpt === plan.length) allAtRcpt();
    return rcptDone;
  };
  const attack = plan.map((p) =>
    attacker(p.address, p.kind, ready, () => {
      if (++reached === plan.length) height();
    }),
  );
  // An SMTP user gets its mail through meanwhile.
  const during = atHeight.then(() => relay());

  const outcomes = await Promise.all(attack);
  const peak = memory.stop();
  const relayed = await during;

  const tally = (kind: Outcome['kind']) =>
    outcomes.filter((o) => o.kind === kind).reduce<Record<string, number>>((t, o) => ({ ...t, [o.code]: (t[o.code] ?? 0) + 1 }), {});
  // Replies other than the expected ones, as said (for a failure's message).
  const odd = [...new Set(outcomes.filter((o) => !/^(552 5\.3\.4|452 4\.3\.1|250 |421 4\.7\.0 Too many connections)/.test(o.reply)).map((o) => `${o.kind}: ${o.reply.slice(0, 120)}`))];
  const report = { reports: tally('report'), inbound: tally('inbound'), odd, peakMB: { rss: Math.round(peak.rss / MB), held: Math.round(peak.held / MB) } };
  process.stderr.write(`smtp abuse: ${JSON.stringify(report)}\n`);

  // Every report (3 MB against 1 MB) was refused for its size, once all of it was sent; the one
  // session too many from 127.0.5.1 was refused at once.
  expect({ reports: report.reports, odd }).toEqual({ reports: { '552': SESSIONS / 2, '421': 1 }, odd: [] });
  const reports = outcomes.filter((x) => x.kind === 'report');
  expect(reports.filter((o) => o.code === '552').every((o) => /^552 5\.3\.4 Message too big: reports may have at most 1048576 bytes/.test(o.reply))).toBe(true);
  expect(reports.find((o) => o.code === '421')!.reply).toMatch(/^421 4\.7\.0 Too many connections from your address/);
  // Inbound mail was taken while the budget had room, and told to come back later (452) once not.
  expect(Object.keys(report.inbound).filter((code) => code !== '250' && code !== '452')).toEqual([]);
  expect(report.inbound['452']).toBeGreaterThan(0);
  const taken = report.inbound['250'] ?? 0;
  expect((await sql(s, 'select count(*)::int as n from inbound_messages'))[0].n).toBe(before + taken);

  expect(relayed.response).toMatch(/^250 Message queued as /);
  expect((await relay()).response).toMatch(/^250 Message queued as /);

  expect(peak.held).toBeLessThan(BUFFER_CEILING);
  expect(peak.rss).toBeLessThan(RSS_CEILING);
  // A generous bound for a machine shared with other suites: the attack moves 600 MB across loopback.
}, 240_000);

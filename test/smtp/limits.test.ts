import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { emailsOf, sql, until } from '../sending/helpers.js';
import { monitoredDomain } from '../dmarc/reports-support.js';
import { rawSmtp } from './raw-client.js';

/**
 * What a session that did not log in may do: which report addresses it may write to, how big its
 * message may be (by kind, and all such sessions together), how many connections one address and
 * everyone may open. Small limits here, so that each one is crossed with a few kilobytes.
 */
const REPORT_MAX = 20_000;
const DMARC_MAX = 30_000;
const INBOUND_MAX = 60_000;
const BUDGET = 100_000;
const PER_ADDRESS = 3;
const CLIENTS = 8;
const FEEDBACK = 'fbl@postbox.test';

let s: TestServer;
let port: number;
let domain: { id: string; name: string };
let inbound: string;
let user: { username: string; password: string };

beforeAll(async () => {
  s = await startTestServer({
    roles: ['api', 'smtp'],
    env: {
      SMTP_PORT: '0',
      FEEDBACK_ADDRESS: FEEDBACK,
      SMTP_MAX_REPORT_BYTES: String(REPORT_MAX),
      SMTP_MAX_DMARC_BYTES: String(DMARC_MAX),
      DMARC_REPORT_DOMAIN: 'reports.postbox.test',
      SMTP_MAX_INBOUND_BYTES: String(INBOUND_MAX),
      SMTP_UNAUTHENTICATED_BUFFER_BYTES: String(BUDGET),
      SMTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      SMTP_MAX_CLIENTS: String(CLIENTS),
    },
  });
  port = s.app.smtpPort!;
  domain = await seedDomain(s);
  const route = await s.rest('POST', '/inbound', { body: { domain_id: domain.id, name: 'desk', domain_enabled: false, forwards: [{ type: 'email', value: 'desk@example.net' }] } });
  if (route.status !== 201) throw new Error(`inbound: ${route.status} ${route.text}`);
  inbound = route.body.data.address;
  const created = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'app' } });
  user = created.body.data;
}, 60_000);
afterAll(() => s?.close());

const id16 = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0') + Date.now().toString(36).slice(-8).padStart(8, '0');

// Each session of the size tests from its own loopback address, clear of the per-address limit.
let next = 0;
const someAddress = () => `127.0.1.${1 + (next++ % 200)}`;

/** Up to RCPT as another mail server would: no login. */
async function toRecipient(rcpt: string, size?: number) {
  const c = await rawSmtp(port, { localAddress: someAddress() });
  await c.send('EHLO mx.sender.example');
  expect(await c.send(`MAIL FROM:<>${size ? ` SIZE=${size}` : ''}`)).toMatch(/^250 /);
  return { c, reply: await c.send(`RCPT TO:<${rcpt}>`) };
}

const line = `${'z'.repeat(98)}\r\n`;
const body = (bytes: number) => `Subject: load\r\n\r\n${line.repeat(Math.ceil(bytes / line.length))}`;

/** DATA of about `bytes`, then the final dot unless `hold`: the answer, or a function sending the dot. */
async function data(c: Awaited<ReturnType<typeof rawSmtp>>, bytes: number) {
  expect(await c.send('DATA')).toMatch(/^354 /);
  c.write(body(bytes));
  return () => c.send('.');
}

describe('report addresses without login', () => {
  it('takes a return path only at a return-path host of one of our domains, and FEEDBACK_ADDRESS', async () => {
    const open = async (rcpt: string) => {
      const { c, reply } = await toRecipient(rcpt);
      c.close();
      return reply.slice(0, 3);
    };
    expect(await open(`bounces+${id16()}@mta.${domain.name}`)).toBe('250');
    expect(await open(`Bounces+${id16().toUpperCase()}@MTA.${domain.name.toUpperCase()}`)).toBe('250');
    expect(await open(FEEDBACK)).toBe('250');
    // Any other host, however close to ours, needs a login.
    for (const rcpt of [
      `bounces+${id16()}@mta.not-ours.example`,
      `bounces+${id16()}@other.${domain.name}`,
      `bounces+${id16()}@${domain.name}`,
      `bounces+${id16()}@x.mta.${domain.name}`,
      `bounces+short@mta.${domain.name}`,
      `fbl@other.example`,
    ]) {
      expect([rcpt, await open(rcpt)]).toEqual([rcpt, '530']);
    }
  });

  it('follows a moved return-path subdomain, and still takes the old host for mail sent before', async () => {
    const sent = await s.rest('POST', '/email', { body: { from: { email: `news@${domain.name}` }, to: [{ email: 'a@example.net' }], subject: 'x', text: 'x' } });
    expect(sent.status).toBe(202);
    const [email] = await until(() => emailsOf(s, sent.headers.get('x-message-id')!).then((r) => (r.length ? r : null)));
    const moved = await s.rest('PUT', `/domains/${domain.id}/settings`, { body: { return_path_subdomain: 'rp2' } });
    expect(moved.status).toBe(200);
    try {
      const open = async (rcpt: string) => {
        const { c, reply } = await toRecipient(rcpt);
        c.close();
        return reply.slice(0, 3);
      };
      expect(await open(`bounces+${id16()}@rp2.${domain.name}`)).toBe('250');
      expect(await open(`bounces+${email.id}@mta.${domain.name}`)).toBe('250');
      expect(await open(`bounces+${id16()}@mta.${domain.name}`)).toBe('530');
    } finally {
      await s.rest('PUT', `/domains/${domain.id}/settings`, { body: { return_path_subdomain: 'mta' } });
    }
  });
});

describe('message size without login', () => {
  it('answers a report over its limit with 552 once the data is in, and the session goes on', async () => {
    const { c, reply } = await toRecipient(`bounces+${id16()}@mta.${domain.name}`);
    expect(reply).toMatch(/^250 /);
    const end = await data(c, REPORT_MAX + 5_000);
    expect(await end()).toMatch(new RegExp(`^552 5\\.3\\.4 Message too big: reports may have at most ${REPORT_MAX} bytes`));
    expect(await c.send('RSET')).toMatch(/^250 /);
    c.close();
  });

  it('refuses at RCPT a report whose announced SIZE is over the limit', async () => {
    const { c, reply } = await toRecipient(FEEDBACK, REPORT_MAX + 1);
    expect(reply).toMatch(/^552 5\.3\.4 /);
    c.close();
  });

  it('answers a DMARC report mail over its limit with 552', async () => {
    const { address } = await monitoredDomain(s);
    const { c, reply } = await toRecipient(address);
    expect(reply).toMatch(/^250 /);
    expect(await (await data(c, DMARC_MAX + 1_000))()).toMatch(new RegExp(`^552 5\\.3\\.4 Message too big: DMARC reports may have at most ${DMARC_MAX} bytes`));
    c.close();
  });

  it('takes inbound mail above the report limit up to its own limit', async () => {
    const ok = await toRecipient(inbound);
    expect(ok.reply).toMatch(/^250 /);
    expect(await (await data(ok.c, INBOUND_MAX - 10_000))()).toMatch(/^250 /);
    ok.c.close();

    const big = await toRecipient(inbound);
    expect(await (await data(big.c, INBOUND_MAX + 1_000))()).toMatch(new RegExp(`^552 5\\.3\\.4 Message too big: inbound mail may have at most ${INBOUND_MAX} bytes`));
    big.c.close();
  });

  it('holds the messages of all sessions without login within one budget: past it, 452', async () => {
    const count = async () => (await sql(s, 'select count(*)::int as n from inbound_messages'))[0].n;
    const before = await count();
    // A is in the middle of 55 KB of its message; B's 55 KB would pass the 100 KB budget.
    const a = await toRecipient(inbound);
    const finishA = await data(a.c, 55_000);
    const b = await toRecipient(inbound);
    expect(await (await data(b.c, 55_000))()).toMatch(/^452 4\.3\.1 Insufficient system storage/);
    // A SIZE over what is left is told so at RCPT.
    const sized = await toRecipient(inbound, 50_000);
    expect(sized.reply).toMatch(/^452 4\.3\.1 /);
    sized.c.close();
    // C's 40 KB fits beside A; then less than a sixteenth of the budget is left, and a new
    // recipient is told at RCPT too.
    const c = await toRecipient(inbound);
    const finishC = await data(c.c, 40_000);
    const d = await toRecipient(inbound);
    expect(d.reply).toMatch(/^452 4\.3\.1 /);
    d.c.close();
    expect(await finishA()).toMatch(/^250 /);
    expect(await finishC()).toMatch(/^250 /);
    // Answered, their bytes are given back: B can now send its message.
    expect(await b.c.send('RSET')).toMatch(/^250 /);
    expect(await b.c.send('MAIL FROM:<>')).toMatch(/^250 /);
    expect(await b.c.send(`RCPT TO:<${inbound}>`)).toMatch(/^250 /);
    expect(await (await data(b.c, 55_000))()).toMatch(/^250 /);
    for (const x of [a, b, c]) x.c.close();
    expect(await count()).toBe(before + 3);
  });

  it('gives back the bytes of a client gone in the middle of its message', async () => {
    const gone = await toRecipient(inbound);
    await data(gone.c, 55_000);
    // Its 55 KB are held until the server sees it go; no one else could send 55 KB meanwhile.
    await new Promise((r) => setTimeout(r, 200));
    gone.c.close();
    const next = await until(async () => {
      const x = await toRecipient(inbound);
      if (x.reply.startsWith('250')) {
        const answer = await (await data(x.c, 55_000))();
        x.c.close();
        if (answer.startsWith('250')) return answer;
      }
      x.c.close();
      return null;
    }, 5_000, 'room for 55 KB again');
    expect(next).toMatch(/^250 /);
  });

  it('does not hold a logged-in user to those limits', async () => {
    const relay = nodemailer.createTransport({
      host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, auth: { user: user.username, pass: user.password },
    });
    const info = await relay.sendMail({ from: `app@${domain.name}`, to: 'big@example.net', subject: 'big', text: 'y'.repeat(BUDGET + 50_000) });
    expect(info.response).toMatch(/^250 Message queued as /);
  });
});

describe('connections', () => {
  const greet = async (localAddress: string) => {
    const c = await rawSmtp(port, { localAddress });
    return { c, code: c.greeting.slice(0, 3) };
  };
  const quitAll = (list: { c: Awaited<ReturnType<typeof rawSmtp>> }[]) => Promise.all(list.map((x) => x.c.quit()));
  /** Every earlier connection is gone: SMTP_MAX_CLIENTS new ones all get in (and leave cleanly). */
  const settledDown = () =>
    until(async () => {
      const all = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => greet(`127.0.2.${1 + i}`)));
      await quitAll(all);
      await new Promise((r) => setTimeout(r, 50));
      return all.every((x) => x.code === '220');
    }, 10_000, 'connections of earlier tests to close');

  it(`greets the connection past ${PER_ADDRESS} from one address with 421; other addresses still get in`, async () => {
    await settledDown();
    const first = [];
    for (let i = 0; i < PER_ADDRESS; i++) first.push(await greet('127.0.0.1'));
    expect(first.map((x) => x.code)).toEqual(Array(PER_ADDRESS).fill('220'));
    const extra = await greet('127.0.0.1');
    expect(extra.c.greeting).toMatch(/^421 4\.7\.0 Too many connections from your address/);
    const other = await greet('127.0.0.2');
    expect(other.code).toBe('220');
    // A connection that leaves frees its place.
    await first[0].c.quit();
    const again = await until(async () => {
      const x = await greet('127.0.0.1');
      if (x.code === '220') return x;
      x.c.close();
      return null;
    }, 5_000, 'a place from 127.0.0.1');
    await quitAll([...first.slice(1), other, again]);
    extra.c.close();
  });

  it(`greets the connection past SMTP_MAX_CLIENTS (${CLIENTS}) with 421`, async () => {
    await settledDown();
    const open = [];
    for (let i = 0; i < CLIENTS; i++) open.push(await greet(`127.0.0.${10 + i}`));
    expect(open.map((x) => x.code)).toEqual(Array(CLIENTS).fill('220'));
    const extra = await greet('127.0.0.30');
    expect(extra.c.greeting).toMatch(/^421 .*Too many connected clients/);
    extra.c.close();
    await quitAll(open);
    await settledDown();
  });
});

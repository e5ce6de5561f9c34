import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { settled } from '../sending/helpers.js';

/** MAIL_TRANSPORT delivers the mail the service writes itself to real SMTP servers. */
describe('MAIL_TRANSPORT=smtp://host:port', () => {
  let sink: SmtpSink;
  let s: TestServer;
  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: 'robot@postbox.test' } });
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  it('relays a sender identity confirmation through the smarthost', async () => {
    const domain = await seedDomain(s);
    const email = `ops@${domain.name}`;
    const res = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email, name: 'Ops' } });
    expect(res.status).toBe(201);
    const got = await sink.waitFor(email);
    expect(got.from).toBe('robot@postbox.test');
    expect(got.raw).toMatch(/^Subject: Confirm your sender identity/m);
    expect(got.raw).toMatch(/\/confirm\/identity\?token=/);
    expect(got.raw).toMatch(/^Message-ID: </m);
  });

  it('gives up at once on a permanent refusal (5xx) instead of retrying', async () => {
    const domain = await seedDomain(s);
    const email = `refused@${domain.name}`;
    sink.refuse(email, 550);
    await s.rest('POST', '/identities', { body: { domain_id: domain.id, email } });
    const deadline = Date.now() + 10_000;
    while (!sink.attempts.includes(email) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // pg-boss would retry a failed job after retryDelay (30 s); give it the time of a quick retry.
    await new Promise((r) => setTimeout(r, 2000));
    expect(sink.attempts.filter((a) => a === email)).toHaveLength(1);
    const { rows } = await import('pg').then(async ({ default: pg }) => {
      const db = new pg.Client({ connectionString: s.dbUrl });
      await db.connect();
      const r = await db.query(`select state from pgboss.job where name = 'system-mail.send' and data->>'to' = $1`, [email]);
      await db.end();
      return r;
    });
    expect(rows.map((r: { state: string }) => r.state)).toEqual(['completed']);
  });
});

describe('MAIL_TRANSPORT=mx', () => {
  let sink: SmtpSink;
  let s: TestServer;
  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({ env: { MAIL_TRANSPORT: 'mx', MX_PORT: String(sink.port) } });
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  it('finds the invitee\'s mail host through DNS and delivers there', async () => {
    s.dns.add('people.example', { type: 'MX', exchange: 'mail.people.example', priority: 10 });
    s.dns.add('mail.people.example', { type: 'A', address: '127.0.0.1' });
    const res = await s.rest('POST', '/users', { body: { email: 'ann@people.example', role: 'manager' } });
    expect(res.status).toBe(200);
    const got = await sink.waitFor('ann@people.example');
    expect(got.raw).toMatch(/\/invites\/accept\?token=/);
  });

  it('delivers a customer\'s email to the MX of each recipient domain, and bounces a domain with no mail host', async () => {
    s.dns.add('shop.example', { type: 'MX', exchange: 'mx.shop.example', priority: 10 });
    s.dns.add('mx.shop.example', { type: 'A', address: '127.0.0.1' });
    const domain = await seedDomain(s, { dkim: true });
    const res = await s.rest('POST', '/email', {
      body: {
        from: { email: `hi@${domain.name}` },
        to: [{ email: 'bob@shop.example' }, { email: 'eve@nowhere.invalid' }],
        subject: 'Via MX',
        text: 'x',
      },
    });
    expect(res.status).toBe(202);
    const got = await sink.waitFor('bob@shop.example');
    expect(got.raw).toMatch(/^DKIM-Signature: /m);
    const emails = await settled(s, res.headers.get('x-message-id')!);
    expect(emails.map((e) => [e.to_email, e.status])).toEqual([
      ['bob@shop.example', 'delivered'],
      ['eve@nowhere.invalid', 'hard_bounced'],
    ]);
  });
});

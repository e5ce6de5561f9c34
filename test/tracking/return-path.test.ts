import nodemailer from 'nodemailer';
import { fixture } from '../bounces/fixture.js';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { activities, sql, until } from './helpers.js';

/**
 * The envelope sender (MAIL FROM, where bounces go) uses the domain's return-path host only once
 * its CNAME is verified; before that RETURN_PATH_TARGET's own host, whose bounces the smtp role
 * takes as well.
 */
let s: TestServer;
let sink: SmtpSink;
let domain: { id: string; name: string };
let port: number;
let n = 0;

async function deliver() {
  n += 1;
  const to = `reader${n}-${Date.now()}@example.net`;
  const res = await s.rest('POST', '/email', {
    body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Hello', text: 'Hi' },
  });
  expect(res.status).toBe(202);
  const [email] = await sql<{ id: string }>(s, 'select id from emails where message_id = ?', [res.headers.get('x-message-id')]);
  const got = await sink.waitFor(to);
  const [row] = await until(
    async () => {
      const rows = await sql<{ smtp_message_id: string | null }>(s, 'select smtp_message_id from emails where id = ?', [email.id]);
      return rows[0]?.smtp_message_id ? rows : null;
    },
    'the delivery recorded',
  );
  return { id: email.id, to, from: got.from, smtpMessageId: row.smtp_message_id! };
}

/** Publishes the records `names` lists (of GET /dns-records) and runs the DNS check. */
async function verifyWith(names: ('spf' | 'dkim' | 'return_path')[]) {
  const r = (await s.rest('GET', `/domains/${domain.id}/dns-records`)).body.data;
  if (names.includes('spf')) s.dns.add(r.spf.hostname, { type: 'TXT', data: r.spf.value });
  if (names.includes('dkim')) s.dns.add(r.dkim.hostname, { type: 'TXT', data: r.dkim.value });
  if (names.includes('return_path')) s.dns.add(r.return_path.hostname, { type: 'CNAME', domain: r.return_path.value });
  expect((await s.rest('GET', `/domains/${domain.id}/verify`)).status).toBe(200);
  return (await s.rest('GET', `/domains/${domain.id}`)).body.data;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({
    roles: ['api', 'worker', 'smtp'],
    env: { SMTP_PORT: '0', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, RETURN_PATH_TARGET: 'Bounce.Postbox.Test' },
  });
  port = s.app.smtpPort!;
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

it('a verified domain without its return-path CNAME sends from RETURN_PATH_TARGET, and a bounce there is taken', async () => {
  const d = await verifyWith(['spf', 'dkim']);
  expect(d).toMatchObject({ is_verified: true, is_dns_active: false });
  const e = await deliver();
  expect(e.from).toBe(`bounces+${e.id}@bounce.postbox.test`);

  const raw = fixture('dsn-failed.eml', {
    RETURN_PATH: e.from, RECIPIENT: e.to, MESSAGE_ID: e.smtpMessageId, ACTION: 'failed', STATUS: '5.1.1',
    DIAGNOSTIC: '550 5.1.1 no such user', NONCE: String(Date.now()),
  });
  const mx = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  const info = await mx.sendMail({ envelope: { from: '', to: [e.from] }, raw });
  expect(info.response).toMatch(/^250 /);
  await until(async () => (await activities(s, e.id)).some((a) => a.type === 'hard_bounced'), 'the bounce');

  // An id that is no email of ours is no return path: it needs a login like any relay.
  const err = await mx.sendMail({ envelope: { from: '', to: ['bounces+0000000000000000@bounce.postbox.test'] }, raw }).catch((x) => x);
  expect(err.responseCode).toBe(530);
});

it('once the return-path CNAME is verified, MAIL FROM is on <return_path_subdomain>.<domain>', async () => {
  const d = await verifyWith(['spf', 'dkim', 'return_path']);
  expect(d).toMatchObject({ is_verified: true, is_dns_active: true });
  const e = await deliver();
  expect(e.from).toBe(`bounces+${e.id}@mta.${domain.name}`);
});

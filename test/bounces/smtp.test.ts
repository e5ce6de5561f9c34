import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { activityOf, settled, sql, until } from '../sending/helpers.js';
import { fixture } from './fixture.js';

/**
 * Reports reach the SMTP listener the way other mail servers send them: without logging in, a
 * DSN to the VERP return path, an ARF complaint to FEEDBACK_ADDRESS.
 */
let s: TestServer;
let domain: { id: string; name: string };
let port: number;
const FEEDBACK = 'fbl@postbox.test';

beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', FEEDBACK_ADDRESS: FEEDBACK } });
  port = s.app.smtpPort!;
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(() => s?.close());

// Another mail server: no AUTH, the null sender of bounces.
const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });

async function delivered(to: string) {
  const res = await s.rest('POST', '/email', { body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Hello', text: 'x' } });
  const [email] = await settled(s, res.headers.get('x-message-id')!);
  const [row] = await sql<{ smtp_message_id: string }>(s, 'select smtp_message_id from emails where id = ?', [email.id]);
  return { ...email, smtp_message_id: row.smtp_message_id, returnPath: `bounces+${email.id}@mta.${domain.name}` };
}

it('a DSN sent to the return path over SMTP hard-bounces the email and suppresses the recipient', async () => {
  const e = await delivered(`gone${Date.now()}@example.net`);
  const raw = fixture('dsn-failed.eml', {
    RETURN_PATH: e.returnPath, RECIPIENT: e.to_email, MESSAGE_ID: e.smtp_message_id, ACTION: 'failed', STATUS: '5.1.1',
    DIAGNOSTIC: '550 5.1.1 no such user', NONCE: String(Date.now()),
  });
  const info = await mx().sendMail({ envelope: { from: '', to: [e.returnPath] }, raw });
  expect(info.response).toMatch(/^250 /);
  await until(async () => (await activityOf(s, e.id)).includes('hard_bounced'), 10_000, 'the bounce');
  const list = await s.rest('GET', `/suppressions/hard-bounces?domain_id=${domain.id}`);
  expect(list.body.data.map((r: any) => r.recipient.email)).toContain(e.to_email);
});

it('an ARF complaint sent to FEEDBACK_ADDRESS over SMTP records the complaint and suppresses the recipient', async () => {
  const e = await delivered(`angry${Date.now()}@example.net`);
  const raw = fixture('arf.eml', { RECIPIENT: e.to_email, MESSAGE_ID: e.smtp_message_id, NONCE: String(Date.now()) });
  const info = await mx().sendMail({ envelope: { from: 'fbl@isp.example', to: [FEEDBACK] }, raw });
  expect(info.response).toMatch(/^250 /);
  await until(async () => (await activityOf(s, e.id)).includes('spam_complaints'), 10_000, 'the complaint');
  const list = await s.rest('GET', `/suppressions/spam-complaints?domain_id=${domain.id}`);
  expect(list.body.data.map((r: any) => r.recipient.email)).toContain(e.to_email);
});

it('refuses to relay for a server that did not log in', async () => {
  const err = await mx()
    .sendMail({ envelope: { from: 'x@elsewhere.example', to: ['victim@example.net'] }, raw: 'Subject: hi\r\n\r\nhi\r\n' })
    .catch((x) => x);
  expect(err.responseCode).toBe(530);
});

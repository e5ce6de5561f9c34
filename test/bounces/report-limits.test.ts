import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { activityOf, settled, sql } from '../sending/helpers.js';
import { fixture } from './fixture.js';

/**
 * Bounce and complaint reports come from anyone: they are read off the event loop, in a worker
 * thread with a hard time limit, within bounds of parts and decoded bytes. A report past them is
 * refused over SMTP with the replies inbound mail gets (554 5.6.0), and changes nothing.
 */

type Answer = { response: string; responseCode?: number };

async function reportServer(env: Record<string, string> = {}) {
  const s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', ...env } });
  const domain = await seedDomain(s, { dkim: true });
  return { s, domain };
}

/** An email delivered, and the DSN that would hard-bounce it, with `extra` MIME parts before its end. */
async function bounceOf(s: TestServer, domain: { name: string }, extra = '') {
  const res = await s.rest('POST', '/email', { body: { from: { email: `news@${domain.name}` }, to: [{ email: `gone${Date.now()}@example.net` }], subject: 'Hi', text: 'x' } });
  const [email] = await settled(s, res.headers.get('x-message-id')!);
  const [row] = await sql<{ smtp_message_id: string }>(s, 'select smtp_message_id from emails where id = ?', [email.id]);
  const returnPath = `bounces+${email.id}@mta.${domain.name}`;
  const dsn = fixture('dsn-failed.eml', {
    RETURN_PATH: returnPath, RECIPIENT: email.to_email, MESSAGE_ID: row.smtp_message_id, ACTION: 'failed', STATUS: '5.1.1',
    DIAGNOSTIC: '550 5.1.1 no such user', NONCE: String(Date.now()),
  }).toString();
  return { emailId: email.id as string, returnPath, raw: dsn.replace('--BOUNDARY--', `${extra}--BOUNDARY--`) };
}

/** Another mail server: no AUTH, the null sender of bounces. */
const report = (s: TestServer, to: string, raw: string): Promise<Answer> =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true })
    .sendMail({ envelope: { from: '', to: [to] }, raw })
    .catch((e: Answer) => e);

describe('the bounds of a report', () => {
  let s: TestServer;
  let domain: { id: string; name: string };
  beforeAll(async () => ({ s, domain } = await reportServer()), 60_000);
  afterAll(() => s?.close());

  it('refuses a DSN of more than 100 MIME parts with 554 5.6.0, and the email is not bounced', async () => {
    const parts = Array.from({ length: 150 }, (_, i) => `--BOUNDARY\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('');
    const bounce = await bounceOf(s, domain, parts);
    const err = await report(s, bounce.returnPath, bounce.raw);
    expect(err.responseCode).toBe(554);
    expect(err.response).toBe('554 5.6.0 The message has more than 100 MIME parts.');
    expect(await activityOf(s, bounce.emailId)).not.toContain('hard_bounced');

    // The same DSN within bounds bounces the email.
    const plain = await bounceOf(s, domain);
    expect((await report(s, plain.returnPath, plain.raw)).response).toMatch(/^250 /);
    expect(await activityOf(s, plain.emailId)).toContain('hard_bounced');
  });
});

describe('the time limit of a report', () => {
  let s: TestServer;
  let domain: { id: string; name: string };
  beforeAll(async () => ({ s, domain } = await reportServer({ UNTRUSTED_PARSE_TIMEOUT_MS: '100' })), 60_000);
  afterAll(() => s?.close());

  it('stops the read of a report that outlives UNTRUSTED_PARSE_TIMEOUT_MS with 554 5.6.0, and the email is not bounced', async () => {
    // 900 KB of UTF-7 in short encoded runs, under SMTP_MAX_REPORT_BYTES: hundreds of ms to decode.
    const slow = `--BOUNDARY\r\nContent-Type: text/plain; charset=utf-7\r\n\r\n${`${'+ADw-'.repeat(15)}\r\n`.repeat(12_000)}`;
    const bounce = await bounceOf(s, domain, slow);
    const err = await report(s, bounce.returnPath, bounce.raw);
    expect(err.responseCode).toBe(554);
    expect(err.response).toBe('554 5.6.0 The message could not be read within the limits: The work took longer than 100 ms and was stopped.');
    expect(await activityOf(s, bounce.emailId)).not.toContain('hard_bounced');
  });
});

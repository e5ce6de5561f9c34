import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { emailsOf, setPlan, settled, sql } from '../sending/helpers.js';
import { rawSmtp } from './raw-client.js';

const MAX_BYTES = 200_000;
let s: TestServer;
let port: number;
let domain: { id: string; name: string };
let user: { id: string; username: string; password: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', SMTP_MAX_MESSAGE_BYTES: String(MAX_BYTES) } });
  port = s.app.smtpPort!;
  domain = await seedDomain(s, { dkim: true });
  user = await smtpUser('relay');
});
afterAll(async () => {
  await s?.close();
});

async function smtpUser(name: string, body: Record<string, unknown> = {}) {
  const res = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name, ...body } });
  if (res.status !== 201) throw new Error(`smtp user: ${res.status} ${res.text}`);
  return res.body.data as { id: string; username: string; password: string };
}

/** A mail client of an SMTP user: STARTTLS (the self-signed certificate), then AUTH. */
function client(auth: { user: string; pass: string }, extra: Record<string, unknown> = {}) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    requireTLS: true,
    auth,
    tls: { rejectUnauthorized: false },
    ...extra,
  } as SMTPTransport.Options);
}

const plainAuth = (u = user) => `AUTH PLAIN ${Buffer.from(`\0${u.username}\0${u.password}`).toString('base64')}`;

/** A raw session past STARTTLS and logged in. */
async function loggedIn() {
  const c = await rawSmtp(port);
  await c.send('EHLO test');
  await c.startTls();
  await c.send('EHLO test');
  expect(await c.send(plainAuth())).toMatch(/^235 /);
  return c;
}

const as = (u = user, extra: Record<string, unknown> = {}) => client({ user: u.username, pass: u.password }, extra);

/** The error nodemailer rejects with, to read its SMTP code. */
async function refusal(p: Promise<unknown>): Promise<{ responseCode: number; response: string }> {
  try {
    await p;
  } catch (err) {
    return err as { responseCode: number; response: string };
  }
  throw new Error('expected the server to refuse');
}

const QUEUED = /^250 Message queued as ([A-Za-z0-9]+)$/;
const mail = (extra: Record<string, unknown> = {}) => ({
  from: `App <app@${domain.name}>`,
  to: `r${Date.now()}@example.net`,
  subject: 'Over SMTP',
  text: 'plain body',
  ...extra,
});

describe('authentication', () => {
  it('refuses AUTH before STARTTLS with 538, on loopback too, and lists AUTH only inside TLS', async () => {
    const c = await rawSmtp(port);
    const ehlo = await c.send('EHLO test');
    expect(ehlo).toContain('STARTTLS');
    expect(ehlo).not.toMatch(/AUTH/);
    // The right password, refused before it is looked at.
    expect(await c.send(plainAuth())).toMatch(/^538 /);
    expect(await c.send('AUTH LOGIN')).toMatch(/^538 /);
    expect(await c.send(`MAIL FROM:<app@${domain.name}>`)).toMatch(/^250 /);
    expect(await c.send('RCPT TO:<someone@example.net>')).toMatch(/^530 /);
    c.close();
    const [row] = await sql(s, 'select accessed_at from smtp_users where id = ?', [user.id]);
    expect(row.accessed_at).toBeNull();

    // A client that skips STARTTLS is not offered AUTH, so it does not send its password; unlogged,
    // its mail is refused like any relay attempt.
    const err = await refusal(as(user, { requireTLS: false, ignoreTLS: true, authMethod: 'PLAIN' }).sendMail(mail()));
    expect(err.responseCode).toBe(530);
  });

  it('accepts AUTH PLAIN after STARTTLS', async () => {
    const info = await as(user, { authMethod: 'PLAIN' }).sendMail(mail());
    expect(info.response).toMatch(QUEUED);
  });

  it('accepts AUTH LOGIN after STARTTLS with the self-signed certificate', async () => {
    const info = await as(user, { requireTLS: true, authMethod: 'LOGIN' }).sendMail(mail());
    expect(info.response).toMatch(QUEUED);
    const [row] = await sql(s, 'select accessed_at from smtp_users where id = ?', [user.id]);
    expect(row.accessed_at).not.toBeNull();
  });

  it('answers a wrong password and an unknown user with 535', async () => {
    const wrong = await refusal(client({ user: user.username, pass: 'not-the-password' }).verify());
    expect(wrong.responseCode).toBe(535);
    expect(wrong.response).toBe('535 5.7.8 Authentication credentials invalid');
    const unknown = await refusal(client({ user: `MS_nobody@${domain.name}`, pass: 'x' }).verify());
    expect(unknown.responseCode).toBe(535);
  });

  it('refuses a disabled SMTP user, also one disabled while its connection is open', async () => {
    const off = await smtpUser('off', { enabled: false });
    expect((await refusal(as(off).verify())).responseCode).toBe(535);

    const later = await smtpUser('later');
    const pooled = as(later, { pool: true, maxConnections: 1 });
    expect((await pooled.sendMail(mail())).response).toMatch(QUEUED);
    await s.rest('PUT', `/domains/${domain.id}/smtp-users/${later.id}`, { body: { enabled: false } });
    expect((await refusal(pooled.sendMail(mail()))).responseCode).toBe(535);
    pooled.close();
  });

  it('locks a username after 5 failures, even against the right password', async () => {
    const target = await smtpUser('target');
    for (let i = 0; i < 5; i++) {
      expect((await refusal(client({ user: target.username, pass: `guess-${i}` }).verify())).responseCode).toBe(535);
    }
    const locked = await refusal(as(target).verify());
    expect(locked.responseCode).toBe(421);
    expect(locked.response).toMatch(/^421 4\.7\.0 Too many failed login attempts/);
    // Other users are not affected.
    expect(await as(user).verify()).toBe(true);
  });

  it('relays nothing without authentication: only reports and inbound routes are open', async () => {
    const c = await rawSmtp(port);
    await c.send('EHLO test');
    expect(await c.send(`MAIL FROM:<app@${domain.name}>`)).toMatch(/^250 /);
    expect(await c.send('RCPT TO:<someone@example.net>')).toMatch(/^530 5\.7\.0 /);
    c.close();
  });
});

describe('the sender and the recipients', () => {
  it('refuses a MAIL FROM outside the user\'s domain with 553', async () => {
    const err = await refusal(as().sendMail(mail({ from: 'app@elsewhere.example' })));
    expect(err.responseCode).toBe(553);
    expect(err.response).toContain(`must be on ${domain.name}`);
  });

  it('refuses a From header outside the domain with 550, whatever the envelope says', async () => {
    const to = `r${Date.now()}@example.net`;
    const err = await refusal(as().sendMail(mail({ from: 'boss@elsewhere.example', to, envelope: { from: `app@${domain.name}`, to: [to] } })));
    expect(err.responseCode).toBe(550);
    expect(err.response).toMatch(/^550 5\.7\.1 From header rejected/);
  });

  it('accepts a subdomain of the user\'s domain as the sender', async () => {
    const info = await as().sendMail(mail({ from: `news@mail.${domain.name}` }));
    expect(info.response).toMatch(QUEUED);
  });

  it('answers 452 past 70 recipients (to 50 + cc 10 + bcc 10)', async () => {
    const c = await loggedIn();
    expect(await c.send(`MAIL FROM:<app@${domain.name}>`)).toMatch(/^250 /);
    for (let i = 0; i < 70; i++) expect(await c.send(`RCPT TO:<n${i}@example.net>`)).toMatch(/^250 /);
    expect(await c.send('RCPT TO:<n70@example.net>')).toMatch(/^452 /);
    c.close();
  });

  it('turns an API validation error into 550 5.7.1 with its first message', async () => {
    const err = await refusal(as().sendMail(mail({ attachments: [{ filename: 'tool.exe', content: 'MZ' }] })));
    expect(err.responseCode).toBe(550);
    expect(err.response).toBe('550 5.7.1 The attachments.0.filename must have one of the supported file extensions.');
  });
});

describe('an accepted message', () => {
  it('enters the sending pipeline: recipients, subject and attachments as sent', async () => {
    const stamp = Date.now();
    const [a, b, c, hidden] = ['a', 'b', 'c', 'hidden'].map((x) => `${x}${stamp}@example.net`);
    const info = await as().sendMail({
      from: `App <app@${domain.name}>`,
      to: [`Ann <${a}>`, b],
      cc: c,
      bcc: hidden,
      replyTo: `help@${domain.name}`,
      subject: 'Invoice 42',
      text: 'see attached',
      html: '<p>see <b>attached</b></p>',
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 fake invoice') }],
    });
    const id = QUEUED.exec(info.response)![1];
    const [message] = await sql(s, 'select * from messages where id = ?', [id]);
    expect(message).toMatchObject({ from_email: `app@${domain.name}`, from_name: 'App', subject: 'Invoice 42', text: 'see attached' });
    expect(message.html).toContain('<b>attached</b>');
    expect(message.cc).toEqual([{ email: c, name: null }]);
    expect(message.bcc).toEqual([{ email: hidden, name: null }]);
    expect(message.reply_to).toEqual({ email: `help@${domain.name}`, name: null });
    const files = await sql(s, 'select filename, disposition, content from message_attachments where message_id = ?', [id]);
    expect(files.map((f) => [f.filename, f.disposition, Buffer.from(f.content).toString()])).toEqual([['invoice.pdf', 'attachment', '%PDF-1.4 fake invoice']]);

    const emails = await settled(s, id);
    expect(emails.map((e) => [e.to_email, e.subject, e.status])).toEqual([
      [a, 'Invoice 42', 'delivered'],
      [b, 'Invoice 42', 'delivered'],
    ]);
    const [kept] = await sql(s, 'select raw from captured_mails where email_id = ?', [emails[0].id]);
    expect(kept.raw).toMatch(/^Subject: Invoice 42$/m);
    expect(kept.raw).toMatch(/^To: Ann <a\d+@example\.net>$/m);
    expect(kept.raw).toMatch(/^Cc: c\d+@example\.net$/m);
    expect(kept.raw).not.toContain(hidden);
    expect(kept.raw).toContain('invoice.pdf');
    expect(kept.raw).toContain(Buffer.from('%PDF-1.4 fake invoice').toString('base64'));
  });

  it('sends each envelope recipient its own copy when To names none of them', async () => {
    const [x, y] = ['x', 'y'].map((p) => `${p}${Date.now()}@example.net`);
    const info = await as().sendMail(mail({ to: 'undisclosed-recipients:;', envelope: { from: `app@${domain.name}`, to: [x, y] } }));
    const emails = await emailsOf(s, QUEUED.exec(info.response)![1]);
    expect(emails.map((e) => e.to_email).sort()).toEqual([x, y].sort());
  });

  it('keeps custom X- headers and In-Reply-To on plans that allow them, drops them otherwise', async () => {
    const accountId = await accountIdOf(s);
    const extra = { headers: { 'X-Campaign': 'spring' }, inReplyTo: '<prev@example.net>', references: ['<prev@example.net>'] };
    const free = QUEUED.exec((await as().sendMail(mail(extra))).response)![1];
    let [m] = await sql(s, 'select headers, in_reply_to, "references" from messages where id = ?', [free]);
    expect(m).toEqual({ headers: [], in_reply_to: null, references: [] });

    await setPlan(s, accountId, 'professional');
    try {
      const pro = QUEUED.exec((await as().sendMail(mail(extra))).response)![1];
      [m] = await sql(s, 'select headers, in_reply_to, "references" from messages where id = ?', [pro]);
      expect(m.headers).toContainEqual({ name: 'X-Campaign', value: 'spring' });
      expect(m.in_reply_to).toBe('<prev@example.net>');
      expect(m.references).toEqual(['<prev@example.net>']);
    } finally {
      await setPlan(s, accountId, 'free');
    }
  });
});

describe('protocol robustness', () => {
  it('advertises SIZE and refuses a bigger message with 552', async () => {
    const c = await rawSmtp(port);
    expect(await c.send('EHLO test')).toContain(`SIZE ${MAX_BYTES}`);
    c.close();

    const big = Buffer.alloc(MAX_BYTES, 'a');
    const err = await refusal(as().sendMail(mail({ attachments: [{ filename: 'big.txt', content: big }] })));
    expect(err.responseCode).toBe(552);
  });

  it('refuses an oversize DATA that announced no SIZE with 552, and accepts nothing', async () => {
    const before = await sql(s, 'select count(*)::int as n from messages');
    const c = await loggedIn();
    await c.send(`MAIL FROM:<app@${domain.name}>`);
    await c.send('RCPT TO:<big@example.net>');
    expect(await c.send('DATA')).toMatch(/^354 /);
    const line = `${'b'.repeat(998)}\r\n`;
    c.write(`From: app@${domain.name}\r\nTo: big@example.net\r\nSubject: big\r\n\r\n`);
    for (let i = 0; i < Math.ceil(MAX_BYTES / line.length) + 5; i++) c.write(line);
    c.write('.\r\n');
    expect(await c.next()).toMatch(/^552 /);
    // The session goes on after the refusal.
    expect(await c.send('RSET')).toMatch(/^250 /);
    c.close();
    expect(await sql(s, 'select count(*)::int as n from messages')).toEqual(before);
  });

  it('answers garbage with an error code and keeps serving', async () => {
    const c = await rawSmtp(port);
    expect(c.greeting).toMatch(/^220 /);
    expect(await c.send('HELLO THERE')).toMatch(/^5\d\d /);
    expect(await c.send('MAIL FROM:<x')).toMatch(/^5\d\d /);
    expect(await c.send(`AUTH CRAM-MD5`)).toMatch(/^50[34] /);
    c.write('\u0000\u0001\u0002 binary junk\r\n');
    await c.next();
    c.close();
    expect((await as().sendMail(mail())).response).toMatch(QUEUED);
  });

  it('offers STARTTLS with the certificate kept in DATA_DIR', async () => {
    const c = await rawSmtp(port);
    expect(await c.send('EHLO test')).toContain('STARTTLS');
    const cert = await c.startTls();
    const stored = new X509Certificate(readFileSync(path.join(s.dataDir, 'smtp-tls', 'cert.pem')));
    expect(cert.fingerprint256).toBe(stored.fingerprint256);
    expect(await c.send('EHLO test')).toMatch(/AUTH PLAIN LOGIN/);
    expect(await c.send('AUTH CRAM-MD5')).toMatch(/^504 /);
    c.close();
  });
});

// Last: it locks out 127.0.0.1, the address every other test connects from.
describe('address lockout', () => {
  it('refuses an address after 20 failures within 15 minutes, at the greeting too', async () => {
    let answer: { responseCode: number } | null = null;
    for (let i = 0; i < 25 && answer?.responseCode !== 421; i++) {
      answer = await refusal(client({ user: `MS_n${i}@${domain.name}`, pass: 'x' }).verify());
      expect([535, 421]).toContain(answer.responseCode);
    }
    expect(answer!.responseCode).toBe(421);
    const c = await rawSmtp(port);
    expect(c.greeting).toMatch(/^421 4\.7\.0 /);
    c.close();
  });
});

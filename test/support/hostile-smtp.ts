import { rawSmtp } from '../smtp/raw-client.js';
import { changedTables, type DataWatch, type SweepReport } from './sweep-check.js';

/**
 * Malformed SMTP sessions against the smtp role. Each one must get SMTP refusals (4xx/5xx) or a
 * closed connection, never a reply past the timeout, never the relay's internal-error answer;
 * none but those marked `mayQueue` may store a message. Failed logins are kept few: after 20
 * from one address the relay refuses that address for 15 minutes, by design. AUTH needs STARTTLS
 * first (538 before it), so the sessions that log in, or probe the AUTH exchange, start TLS.
 */
export interface SmtpTarget {
  port: number;
  /** A verified sending domain and an SMTP user on it. */
  domain: string;
  username: string;
  password: string;
  maxBytes: number;
}

export interface SmtpSession {
  kind: 'smtp';
  label: string;
  /** Broken MIME from a logged-in user is still mail: the relay may queue it. */
  mayQueue?: boolean;
  run(t: SmtpTarget): Promise<SessionResult>;
}

export interface SessionResult {
  violations: string[];
  /** A `250 Message queued` was received: the session may have changed data. */
  queued: boolean;
  transcript: string[];
}

type Client = Awaited<ReturnType<typeof rawSmtp>>;
const TIMEOUT_MS = 10_000;
const INTERNAL = /^451 4\.3\.0/m;

/** A raw client whose every reply is checked; `expect` says what a reply may be. */
async function session(port: number, work: (step: (line: string | null, expect?: Expect) => Promise<string>, c: Client) => Promise<void>): Promise<SessionResult> {
  const violations: string[] = [];
  const transcript: string[] = [];
  let queued = false;
  const c = await within(rawSmtp(port), 'greeting');
  const check = (what: string, reply: string, expect: Expect) => {
    transcript.push(`> ${what.slice(0, 80)}`, `< ${reply.slice(0, 200)}`);
    if (/^250 Message queued/m.test(reply)) queued = true;
    if (reply === '(timeout)') violations.push(`no reply to ${what.slice(0, 60)} within ${TIMEOUT_MS} ms`);
    else if (INTERNAL.test(reply)) violations.push(`internal error answering ${what.slice(0, 60)}: ${reply}`);
    else if (expect === 'refusal' && !/^[45]\d\d[ -]/.test(reply) && reply !== '(closed)') violations.push(`${what.slice(0, 60)} not refused: ${reply.slice(0, 120)}`);
    else if (expect === 'ok' && !/^[23]\d\d[ -]/.test(reply)) violations.push(`${what.slice(0, 60)} refused: ${reply.slice(0, 120)}`);
  };
  const step = async (line: string | null, expect: Expect = 'refusal') => {
    const reply = await timed(line === null ? c.next() : c.send(line));
    check(line ?? '(reply)', reply, expect);
    return reply;
  };
  try {
    await work(step, c);
  } finally {
    c.close();
  }
  return { violations, queued, transcript };
}

type Expect = 'refusal' | 'ok' | 'any';

const timed = (p: Promise<string>) => Promise.race([p, new Promise<string>((r) => setTimeout(() => r('(timeout)'), TIMEOUT_MS).unref())]);
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref());
  return Promise.race([p, timeout]);
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const plain = (t: SmtpTarget) => `AUTH PLAIN ${b64(`\0${t.username}\0${t.password}`)}`;
type Step = (line: string | null, expect?: Expect) => Promise<string>;

/** EHLO, STARTTLS and EHLO again: where AUTH may be used. */
async function secured(step: Step, c: Client) {
  await step('EHLO sweep.test', 'ok');
  await within(c.startTls(), 'TLS handshake');
  await step('EHLO sweep.test', 'ok');
}

/** Logged in, with a valid sender and one recipient: ready for DATA. */
async function ready(step: Step, c: Client, t: SmtpTarget) {
  await secured(step, c);
  await step(plain(t), 'ok');
  await step(`MAIL FROM:<app@${t.domain}>`, 'ok');
  await step('RCPT TO:<sweep@example.net>', 'ok');
}

const s = (label: string, run: SmtpSession['run'], mayQueue = false): SmtpSession => ({ kind: 'smtp', label, run, mayQueue });

export function smtpSessions(): SmtpSession[] {
  const commands = (label: string, lines: string[], ehlo = true) =>
    s(label, (t) =>
      session(t.port, async (step) => {
        if (ehlo) await step('EHLO sweep.test', 'ok');
        for (const line of lines) await step(line);
      }),
    );
  const loggedIn = (label: string, lines: string[]) =>
    s(label, (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step(plain(t), 'ok');
        for (const line of lines) await step(line);
      }),
    );
  const message = (label: string, data: string | Buffer, expect: Expect = 'any') =>
    s(
      label,
      (t) =>
        session(t.port, async (step, c) => {
          await ready(step, c, t);
          await step('DATA', 'ok');
          c.write(typeof data === 'string' ? data.replaceAll('{domain}', t.domain) : data);
          c.write('\r\n.\r\n');
          await step(null, expect);
        }),
      true,
    );
  return [
    commands('garbage commands', ['HELLO THERE', 'FOO BAR', '!!!!', 'MAIL', 'RCPT', 'VRFY'], false),
    commands('10 KB EHLO line', [`EHLO ${'a'.repeat(10_000)}`], false),
    commands('10 KB MAIL FROM line', [`MAIL FROM:<${'a'.repeat(10_000)}@example.net>`]),
    commands('NUL bytes in commands', ['MAIL FROM:<a\u0000b@example.net>', 'NOOP\u0000\u0000']),
    commands('RCPT before MAIL', ['RCPT TO:<someone@example.net>']),
    commands('DATA before MAIL', ['DATA']),
    s('DATA before RCPT', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step(plain(t), 'ok');
        await step(`MAIL FROM:<app@${t.domain}>`, 'ok');
        await step('DATA');
      }),
    ),
    commands('malformed MAIL FROM', ['MAIL FROM:<x', 'MAIL FROM:', 'MAIL FROM:<<>>', 'MAIL FROM:<a@b.example> SIZE=abc', 'MAIL FROM:<a@b.example> BODY=WRONG', 'MAIL TO:<a@b.example>']),
    s('unicode MAIL FROM without SMTPUTF8', (t) =>
      session(t.port, async (step) => {
        await step('EHLO sweep.test', 'ok');
        // Without a login the sender is not checked; the recipient decides.
        await step('MAIL FROM:<ü\u202E@ü.example>', 'any');
        await step('RCPT TO:<ü@not-ours.example>');
      }),
    ),
    loggedIn('MAIL FROM outside the domain and malformed', ['MAIL FROM:<app@elsewhere.example>', 'MAIL FROM:<@route:a@b.example>', `MAIL FROM:<${'a'.repeat(300)}@x.example>`]),
    s('malformed RCPT TO', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step(plain(t), 'ok');
        await step(`MAIL FROM:<app@${t.domain}>`, 'ok');
        // Parameters smtp-server does not know are its business; the address must not pass.
        await step('RCPT TO:<a@b.example> SWEEP=1', 'any');
        for (const r of ['RCPT TO:<>', 'RCPT TO:<x', 'RCPT TO:<a@b@c>', 'RCPT TO:<a@[999.1.1.1]>', `RCPT TO:<${'r'.repeat(500)}@x.example>`]) await step(r);
      }),
    ),
    s('RCPT TO without login', (t) =>
      session(t.port, async (step) => {
        await step('EHLO sweep.test', 'ok');
        await step('MAIL FROM:<a@b.example>', 'any');
        await step('RCPT TO:<nobody@not-ours.example>');
      }),
    ),
    s('AUTH before STARTTLS', (t) =>
      session(t.port, async (step) => {
        await step('EHLO sweep.test', 'ok');
        // Refused (538) before any credential is looked at; the password is right.
        await step(plain(t));
        await step('AUTH LOGIN');
        await step(`MAIL FROM:<app@${t.domain}>`, 'any');
        await step('RCPT TO:<sweep@example.net>');
      }),
    ),
    s('bad AUTH PLAIN base64', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step('AUTH PLAIN !!!not-base64!!!');
        await step('AUTH PLAIN =');
        // No initial response: the server asks for it (334), and `*` cancels.
        await step('AUTH PLAIN', 'any');
        await step('*');
      }),
    ),
    s('AUTH with an unknown mechanism', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        for (const line of ['AUTH XOAUTH2 dG9rZW4=', 'AUTH CRAM-MD5', 'AUTH']) await step(line);
      }),
    ),
    s('AUTH LOGIN with bad base64', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step('AUTH LOGIN', 'any');
        await step('%%%%', 'refusal');
      }),
    ),
    s('AUTH LOGIN cancelled', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step('AUTH LOGIN', 'any');
        await step('*');
      }),
    ),
    s('wrong password, unknown user', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step(`AUTH PLAIN ${b64(`\0${t.username}\0wrong-password`)}`);
        await step(`AUTH PLAIN ${b64('\0nobody-here\0x')}`);
        await step(`AUTH PLAIN ${b64(`\0${'u'.repeat(2000)}\0${'p'.repeat(2000)}`)}`);
      }),
    ),
    s('pipelined junk', (t) =>
      session(t.port, async (step, c) => {
        await step('EHLO sweep.test', 'ok');
        c.write('MAIL FROM:<a@b.example>\r\nRCPT TO:<x>\r\nFOO\r\nDATA\r\n\u0000\u0001\r\n');
        for (let i = 0; i < 5; i++) await step(null, 'any');
      }),
    ),
    s('bare LF line endings', (t) =>
      session(t.port, async (step, c) => {
        c.write('EHLO sweep.test\nMAIL FROM:<a@b.example>\n');
        await step(null, 'any');
        await step(null, 'any');
        await step('RCPT TO:<x@not-ours.example>');
      }),
    ),
    s('DATA over SMTP_MAX_MESSAGE_BYTES', (t) =>
      session(t.port, async (step, c) => {
        await ready(step, c, t);
        await step('DATA', 'ok');
        c.write(`From: app@${t.domain}\r\nTo: sweep@example.net\r\nSubject: big\r\n\r\n`);
        const line = `${'b'.repeat(998)}\r\n`;
        for (let i = 0; i < Math.ceil(t.maxBytes / line.length) + 5; i++) c.write(line);
        c.write('.\r\n');
        await step(null);
        await step('RSET', 'ok');
      }),
    ),
    s('MAIL FROM announcing a SIZE over the limit', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step(plain(t), 'ok');
        await step(`MAIL FROM:<app@${t.domain}> SIZE=${t.maxBytes * 10}`);
      }),
    ),
    message('broken MIME: unterminated multipart', `From: app@{domain}\r\nTo: sweep@example.net\r\nSubject: mime\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nhalf`),
    message('broken MIME: bad base64 and charset', `From: app@{domain}\r\nTo: sweep@example.net\r\nSubject: =?x-unknown?B?@@@?=\r\nContent-Type: text/plain; charset=x-sweep\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!not base64!!!!`),
    message('broken MIME: no headers at all', 'just a body line\r\nand another'),
    message('broken MIME: header garbage', `From: app@{domain}\r\nTo: <<<>>>\r\nSubject: ${'s'.repeat(5000)}\r\n: no name\r\nX-Null: a\u0000b\r\n\r\nbody`),
    message('raw 8-bit and invalid UTF-8 in DATA', Buffer.concat([Buffer.from('From: app@x\r\nSubject: '), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('\r\n\r\nbody '), Buffer.from([0x80, 0x81])])),
    message('one 200 KB line in DATA', `From: app@{domain}\r\nTo: sweep@example.net\r\nSubject: long\r\n\r\n${'x'.repeat(200_000)}`),
    s('disconnect mid-DATA', (t) =>
      session(t.port, async (step, c) => {
        await ready(step, c, t);
        await step('DATA', 'ok');
        c.write(`From: app@${t.domain}\r\nTo: sweep@example.net\r\nSubject: cut\r\n\r\nhalf a mess`);
        c.close();
      }),
    ),
    s('disconnect mid-AUTH LOGIN', (t) =>
      session(t.port, async (step, c) => {
        await secured(step, c);
        await step('AUTH LOGIN', 'any');
        c.write(b64(t.username).slice(0, 3));
        c.close();
      }),
    ),
    s('STARTTLS then plaintext junk', (t) =>
      session(t.port, async (step, c) => {
        await step('EHLO sweep.test', 'ok');
        await step('STARTTLS', 'ok');
        c.write('this is not a TLS ClientHello\r\n');
        c.close();
      }),
    ),
  ];
}

/**
 * Runs every session with a checksum around it (sessions are few and slow, so one by one): a
 * session that queued nothing must leave the data as it was.
 */
export async function sweepSmtp(t: SmtpTarget, sessions: SmtpSession[], watch: DataWatch, report: SweepReport) {
  for (const sess of sessions) {
    const before = await watch.checksum();
    let result: SessionResult;
    try {
      result = await sess.run(t);
    } catch (err) {
      result = { violations: [String(err)], queued: false, transcript: [] };
    }
    report.sent++;
    report.byKind.smtp = (report.byKind.smtp ?? 0) + 1;
    for (const v of result.violations) report.serverErrors.push(`smtp ${sess.label}: ${v}`);
    if (result.queued && !sess.mayQueue) report.shapeViolations.push(`smtp ${sess.label}: queued a message`);
    if (result.queued) continue;
    // The server finishes with a dropped connection after the client has gone.
    await new Promise((r) => setTimeout(r, 100));
    const changed = changedTables(before, await watch.checksum());
    if (changed.length) report.dataChanges.push(`smtp ${sess.label} changed ${changed.join(', ')}`);
  }
}

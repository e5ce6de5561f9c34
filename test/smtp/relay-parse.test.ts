import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sql } from '../sending/helpers.js';
import { longestHoldDuring } from '../support/loop-watch.js';

/**
 * Mail from a logged-in SMTP user (up to SMTP_MAX_MESSAGE_BYTES, 40 MB) is parsed off the event
 * loop, in a worker thread with a hard time limit, within bounds of parts, attachments and decoded
 * bytes. A message past them is refused with the replies the inbound path uses; one within them is
 * relayed as before. The server runs in this process, so the delay of this process's event loop
 * is the server's.
 */
const PARSE_MS = 1500;
const MB = 1024 * 1024;
/** Far below the seconds the held parse cost, far above a busy machine's jitter. */
const HELD_MS = 1000;

let s: TestServer;
let domain: { id: string; name: string };
let user: { username: string; password: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'smtp'], env: { SMTP_PORT: '0', UNTRUSTED_PARSE_TIMEOUT_MS: String(PARSE_MS) } });
  domain = await seedDomain(s, { dkim: true });
  const res = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'relay' } });
  if (res.status !== 201) throw new Error(`smtp user: ${res.status} ${res.text}`);
  user = res.body.data;
}, 60_000);
afterAll(() => s?.close());

type Answer = { response: string; responseCode?: number };

const relay = (raw: string | Buffer, to = `r${Date.now()}@example.net`): Promise<Answer> =>
  nodemailer
    .createTransport({
      host: '127.0.0.1',
      port: s.app.smtpPort!,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
      auth: { user: user.username, pass: user.password },
    } as SMTPTransport.Options)
    .sendMail({ envelope: { from: `app@${domain.name}`, to: [to] }, raw })
    .catch((e: Answer) => e);

const head = (contentType: string, extra = '') =>
  `From: App <app@${domain.name}>\r\nTo: r@example.net\r\nSubject: Relayed\r\nMIME-Version: 1.0\r\nContent-Type: ${contentType}\r\n${extra}\r\n`;
/** `line` repeated, one per CRLF line, to about `bytes`. */
const lines = (line: string, bytes: number) => `${line}\r\n`.repeat(Math.floor(bytes / (line.length + 2)));
const multipart = (parts: string[]) => head('multipart/mixed; boundary="b"') + parts.map((p) => `--b\r\n${p}`).join('') + '--b--\r\n';

const QUEUED = /^250 Message queued as ([A-Za-z0-9]+)$/;
const messages = async () => (await sql<{ n: number }>(s, 'select count(*)::int as n from messages'))[0].n;

it('stops a parse that outlives UNTRUSTED_PARSE_TIMEOUT_MS with 554 5.6.0 without holding the event loop, and relays the next message', async () => {
  // 12 MB of UTF-7 text in short encoded runs: decoded in one call, it held the event loop for seconds.
  const raw = head('text/plain; charset=utf-7') + lines('+ADw-'.repeat(15), 12 * MB);
  const before = await messages();
  const { result, heldMs } = await longestHoldDuring(relay(raw));
  expect(heldMs).toBeLessThan(HELD_MS);
  expect(result.responseCode).toBe(554);
  expect(result.response).toBe(`554 5.6.0 The message could not be read within the limits: The work took longer than ${PARSE_MS} ms and was stopped.`);
  expect(await messages()).toBe(before);

  // A new thread reads the next one.
  expect((await relay(head('text/plain') + 'hello again\r\n')).response).toMatch(QUEUED);
});

it('reads 16 MB of `<` in an html part off the event loop, then refuses the html over 2 MB with 550', async () => {
  const raw = head('text/html') + lines('<'.repeat(78), 16 * MB);
  const { result, heldMs } = await longestHoldDuring(relay(raw));
  expect(result.response).toBe('550 5.7.1 The html may not be greater than 2 MB.');
  expect(heldMs).toBeLessThan(HELD_MS);
});

it('relays a message of 300 parts, every part\'s text kept', async () => {
  const raw = multipart(Array.from({ length: 300 }, (_, i) => `Content-Type: text/plain\r\n\r\nline ${i}\r\n`));
  const info = await relay(raw);
  const id = QUEUED.exec(info.response)?.[1];
  expect(id).toBeDefined();
  const [message] = await sql<{ text: string }>(s, 'select text from messages where id = ?', [id]);
  expect(message.text).toContain('line 0');
  expect(message.text).toContain('line 299');
});

it('relays as many attachments as a send may carry: 200 files, each as sent', async () => {
  const file = (i: number) =>
    `Content-Type: application/pdf\r\nContent-Disposition: attachment; filename="f${i}.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(`%PDF-1.4 file ${i}`).toString('base64')}\r\n`;
  const info = await relay(multipart(['Content-Type: text/plain\r\n\r\nsee attached\r\n', ...Array.from({ length: 200 }, (_, i) => file(i))]));
  const id = QUEUED.exec(info.response)?.[1];
  expect(id).toBeDefined();
  const files = await sql<{ filename: string; content: Buffer }>(s, 'select filename, content from message_attachments where message_id = ?', [id]);
  expect(files).toHaveLength(200);
  const f123 = files.find((f) => f.filename === 'f123.pdf');
  expect(Buffer.from(f123!.content).toString()).toBe('%PDF-1.4 file 123');
});

it('refuses a message of more than 1000 MIME parts with 554 5.6.0, and queues nothing', async () => {
  const before = await messages();
  const raw = multipart(Array.from({ length: 1000 }, (_, i) => `Content-Type: text/plain\r\n\r\n${i}\r\n`));
  const err = await relay(raw);
  expect(err.responseCode).toBe(554);
  expect(err.response).toBe('554 5.6.0 The message has more than 1000 MIME parts.');
  expect(await messages()).toBe(before);
});

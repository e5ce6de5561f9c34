import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { seedDomain } from '../support/factories.js';
import { inPieces, slowestHealthDuring } from '../support/loop-watch.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { sql, until } from '../sending/helpers.js';

/**
 * Mail for inbound routes comes from anyone: its MIME is parsed off the event loop, and a message
 * of too many parts, too many attachments or too much decoded content is refused over SMTP with
 * a 5xx that says which, before it is expanded and without storing anything.
 */
let s: TestServer;
let sink: SmtpSink;
let r: Receiver;
let domain: { id: string; name: string };
let seq = 0;

const MB = 1024 * 1024;
const DECODED = 20 * MB;

beforeAll(async () => {
  sink = await startSmtpSink();
  r = await startReceiver();
  s = await startTestServer({
    roles: ['api', 'worker', 'smtp'],
    env: {
      SMTP_PORT: '0',
      MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      INBOUND_MAX_ATTACHMENTS: '5',
      INBOUND_MAX_DECODED_BYTES: String(DECODED),
    },
  });
  domain = await seedDomain(s);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
  await r?.close();
});

const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true });

type Answer = { response: string; responseCode?: number };
const send = (mail: Record<string, unknown>): Promise<Answer> =>
  mx()
    .sendMail({ from: 'alice@sender.example', subject: 'Inbound', ...mail })
    .catch((e: Answer) => e);

/** A route forwarding to the sink; its address takes mail. */
async function route() {
  const res = await s.rest('POST', '/inbound', {
    body: { domain_id: domain.id, name: `limits ${++seq}`, domain_enabled: false, forwards: [{ type: 'email', value: `copy${seq}@${domain.name}` }] },
  });
  if (res.status !== 201) throw new Error(`route: ${res.status} ${res.text}`);
  return res.body.data as { id: string; address: string };
}

const stored = (routeId: string) => sql(s, 'select status from inbound_messages where inbound_id = ?', [routeId]);

/** A message of `count` inline text parts: parts that are no attachments, so only the part count limits them. */
function manyParts(to: string, count: number): string {
  const part = (i: number) => `--b\r\nContent-Type: text/plain\r\n\r\nline ${i}\r\n`;
  const head = `From: alice@sender.example\r\nTo: ${to}\r\nSubject: Parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n`;
  return head + Array.from({ length: count }, (_, i) => part(i)).join('') + '--b--\r\n';
}

const pdf = (i: number, bytes = 100) => ({ filename: `file${i}.pdf`, content: Buffer.alloc(bytes, 0x25), contentType: 'application/pdf' });

it('refuses a message of more MIME parts than INBOUND_MAX_MIME_PARTS (250) with 554 5.6.0, and stores nothing', async () => {
  const rt = await route();
  const err = await mx()
    .sendMail({ envelope: { from: 'alice@sender.example', to: [rt.address] }, raw: manyParts(rt.address, 300) })
    .catch((e: Answer) => e);
  expect(err.responseCode).toBe(554);
  expect(err.response).toBe('554 5.6.0 The message has more than 250 MIME parts.');
  expect(await stored(rt.id)).toEqual([]);
});

it('refuses more attachments than INBOUND_MAX_ATTACHMENTS with 554 5.6.0; as many as allowed are forwarded', async () => {
  const rt = await route();
  const err = await send({ to: rt.address, text: 'six', attachments: [1, 2, 3, 4, 5, 6].map((i) => pdf(i)) });
  expect(err.responseCode).toBe(554);
  expect(err.response).toBe('554 5.6.0 The message has more than 5 attachments.');
  expect(await stored(rt.id)).toEqual([]);
  const ok = await send({ to: rt.address, text: 'five', attachments: [1, 2, 3, 4, 5].map((i) => pdf(i)) });
  expect(ok.response).toMatch(/^250 /);
  expect(await until(async () => ((await stored(rt.id))[0]?.status === 'forwarded' ? true : null))).toBe(true);
});

it('refuses a message whose parts decode to more than INBOUND_MAX_DECODED_BYTES with 552 5.3.4', async () => {
  const rt = await route();
  const err = await send({ to: rt.address, text: 'big', attachments: [1, 2, 3].map((i) => pdf(i, 7 * MB)) });
  expect(err.responseCode).toBe(552);
  expect(err.response).toBe(`552 5.3.4 The message decodes to more than ${DECODED} bytes.`);
  expect(await stored(rt.id)).toEqual([]);
});

it('refuses an html-only message whose html is too long to read its text from with 552 5.3.4; a shorter one is forwarded', async () => {
  const rt = await route();
  // Markup-dense html: html-to-text's memory grows many times faster than it.
  const err = await send({ to: rt.address, html: `<p>${'<'.repeat(3 * MB)}</p>` });
  expect(err.responseCode).toBe(552);
  expect(err.response).toBe("552 5.3.4 The message's html is longer than its text can be read from.");
  expect(await stored(rt.id)).toEqual([]);
  const ok = await send({ to: rt.address, html: `<p>Hello <b>there</b></p>${'<i>x</i>'.repeat(100_000)}` });
  expect(ok.response).toMatch(/^250 /);
  expect(await until(async () => ((await stored(rt.id))[0]?.status === 'forwarded' ? true : null))).toBe(true);
});

it('parses a large message off the event loop and makes no html of its text: GET /health keeps answering', async () => {
  const rt = await route();
  // 16 MB of text that html-escapes four times over: turned into html on the event loop, it held the loop for seconds.
  const text = '<'.repeat(78).concat('\r\n').repeat((16 * MB) / 80);
  // Composed before the watch begins, and written in pieces: the client shares this process's loop.
  const raw = await new MailComposer({ from: 'alice@sender.example', to: rt.address, subject: 'Inbound', text }).compile().build();
  const sending = mx().sendMail({ envelope: { from: 'alice@sender.example', to: [rt.address] }, raw: inPieces(raw) });
  const { result, slowestMs, answers } = await slowestHealthDuring(s.url, sending);
  expect(result.response).toMatch(/^250 /);
  expect(answers).toBeGreaterThan(1);
  expect(slowestMs).toBeLessThan(1000);
});

it('checks only the first ten DKIM signatures of a message, however many it carries', async () => {
  const path = '/in-limits-dkim';
  const res = await s.rest('POST', '/inbound', {
    body: { domain_id: domain.id, name: 'dkim limits', domain_enabled: false, forwards: [{ type: 'webhook', value: r.url(path) }] },
  });
  const rt = res.body.data as { address: string; forwards: { secret: string }[] };
  r.secretFor(path, rt.forwards[0].secret);
  // Each names a selector of its own: a DNS lookup apiece, were all of them checked.
  const signatures = Array.from(
    { length: 40 },
    (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=signer${i}.example; s=s${i};\r\n h=from:subject; bh=AAAA; b=AAAA`,
  );
  const raw = [...signatures, 'From: alice@sender.example', `To: ${rt.address}`, 'Subject: Signed a lot', '', 'Hello', ''].join('\r\n');
  const info = await mx().sendMail({ envelope: { from: 'alice@sender.example', to: [rt.address] }, raw });
  expect(info.response).toMatch(/^250 /);
  const [req] = r.received(path);
  expect(req.json.data.auth.dkim.map((d: { domain: string }) => d.domain)).toEqual(Array.from({ length: 10 }, (_, i) => `signer${i}.example`));
  // The forwarded bytes keep every signature.
  expect(Buffer.from(req.json.data.raw, 'base64').toString().match(/^DKIM-Signature:/gm)).toHaveLength(40);
});

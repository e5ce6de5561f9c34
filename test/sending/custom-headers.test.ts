import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { EmailParams, Recipient, Sender } from 'mailersend';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { failure, sdkFor } from '../sdk/sdk.js';
import { setPlan, sql } from './helpers.js';

/**
 * Custom headers (SPEC.md "Sending email" `headers`) are an allow-list: X- headers other than the
 * ones receiving servers write as their own record or verdict, and a few standard ones the service
 * never writes. Anything else could pass for the service's own header or for another server's.
 */
let sink: SmtpSink;
let s: TestServer;
let from: string;
let domain: { id: string; name: string };
/** Another account's domain. */
let other: { name: string };
let seq = 0;
const rcpt = (tag: string) => `${tag}-${++seq}-${Date.now().toString(36)}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, SMTP_PORT: '0' } });
  domain = await seedDomain(s, { dkim: true });
  from = `news@${domain.name}`;
  other = await seedDomain(s, { token: (await createAccount(s, 'Another tenant')).token });
  await setPlan(s, await accountIdOf(s), 'professional');
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const send = (headers: unknown[], to = rcpt('h')) =>
  s.rest('POST', '/email', { body: { from: { email: from }, to: [{ email: to }], subject: 'Headers', text: 'Hi', headers } });

/** Headers that would pass for the service's own, or for a receiving server's record or verdict. */
const REFUSED: [name: string, reason: RegExp][] = [
  ['Resent-From', /must be an X- header or one of Auto-Submitted/],
  ['Content-Disposition', /must be an X- header/],
  ['Authentication-Results', /must be an X- header/],
  ['ARC-Seal', /must be an X- header/],
  ['ARC-Message-Signature', /must be an X- header/],
  ['ARC-Authentication-Results', /must be an X- header/],
  ['Received', /must be an X- header/],
  ['Sender', /is set by the service/],
  ['DKIM-Signature', /is set by the service/],
  ['List-Unsubscribe', /is set by the service/],
  ['In-Reply-To', /is set by the service/],
  ['X-Postbox-Account', /is set by the service/],
  ['X-Original-From', /written by receiving mail servers/],
  ['X-Original-Authentication-Results', /written by receiving mail servers/],
  ['X-Spam-Flag', /written by receiving mail servers/],
  ['X-MS-Exchange-Organization-SCL', /written by receiving mail servers/],
  ['X-Microsoft-Antispam', /written by receiving mail servers/],
  ['X-Google-Original-From', /written by receiving mail servers/],
  ['X-Authenticated-Sender', /written by receiving mail servers/],
  ['X-Virus-Scanned', /written by receiving mail servers/],
];

describe('custom headers', () => {
  it('each refused header is a 422 on /v1 naming headers.N.name', async () => {
    for (const [name, reason] of REFUSED) {
      const to = rcpt('refused');
      const value = name === 'Resent-From' ? `ceo@${other.name}` : 'pass';
      const res = await send([{ name: 'X-Campaign', value: 'ok' }, { name, value }], to);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['headers.1.name']);
      expect(res.body.errors['headers.1.name'][0]).toMatch(reason);
      expect(res.body.errors['headers.1.name'][0]).toMatch(/^The headers\.1\.name /);
      expect((await sql(s, 'select 1 from emails where to_email = ?', [to])).length).toBe(0);
    }
  });

  it('each refused header is a 422 through GraphQL send_email', async () => {
    const mutation = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $headers: [HeaderInput!]) {
      send_email(from: $from, to: $to, subject: "Headers", text: "Hi", headers: $headers) { message_id } }`;
    for (const [name, reason] of REFUSED) {
      const res = await s.gql(mutation, { from: { email: from }, to: [{ email: rcpt('gql') }], headers: [{ name, value: 'x' }] });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[0].extensions.errors['headers.0.name'][0]).toMatch(reason);
    }
  });

  it('the SDK sends headers as [{name, value}]: a refused one is its 422', async () => {
    const ms = sdkFor(s);
    const params = new EmailParams()
      .setFrom(new Sender(from, 'News'))
      .setTo([new Recipient(rcpt('sdk'))])
      .setSubject('Hi')
      .setText('Plain')
      .setHeaders([{ name: 'Authentication-Results', value: 'mx.example; dkim=pass' }]);
    const res = await failure(ms.email.send(params));
    expect(res.status).toBe(422);
    expect(res.body.errors['headers.0.name'][0]).toMatch(/must be an X- header/);
  });

  it('allowed X- and standard headers reach the receiving server', async () => {
    const to = rcpt('allowed');
    const res = await send(
      [
        { name: 'X-Campaign', value: 'fall-26' },
        { name: 'X-Mailer', value: 'Shop 1.0' },
        { name: 'X-Entity-Ref-ID', value: 'order-17' },
        { name: 'Auto-Submitted', value: 'auto-generated' },
        { name: 'Feedback-ID', value: 'order:shop' },
      ],
      to,
    );
    expect(res.status).toBe(202);
    const raw = (await sink.waitFor(to)).raw.replace(/\r?\n[ \t]+/g, ' ');
    expect(raw).toMatch(/^X-Campaign: fall-26\r?$/m);
    expect(raw).toMatch(/^X-Mailer: Shop 1\.0\r?$/m);
    expect(raw).toMatch(/^X-Entity-Ref-ID: order-17\r?$/m);
    expect(raw).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(raw).toMatch(/^Feedback-ID: order:shop\r?$/m);
  });

  it('bounds the headers: their number, a name length and control characters in a value', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `X-H${i}`, value: 'v' }));
    expect((await send(many)).body.errors).toEqual({ headers: ['The headers may not have more than 50 items.'] });
    const long = await send([{ name: `X-${'a'.repeat(80)}`, value: 'v' }]);
    expect(Object.keys(long.body.errors)).toEqual(['headers.0.name']);
    const control = await send([{ name: 'X-A', value: 'a\u0007b' }]);
    expect(control.body.errors).toEqual({ 'headers.0.value': ['The headers.0.value format is invalid.'] });
  });

  it('mail relayed over SMTP keeps its allowed X- headers and drops refused ones instead of the mail', async () => {
    const created = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'relay' } });
    const user = created.body.data as { username: string; password: string };
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: s.app.smtpPort!,
      secure: false,
      requireTLS: true,
      auth: { user: user.username, pass: user.password },
      tls: { rejectUnauthorized: false },
    } as SMTPTransport.Options);
    const info = await transport.sendMail({
      from,
      to: rcpt('relayed'),
      subject: 'Relayed',
      text: 'Hi',
      headers: { 'X-Campaign': 'relay', 'X-Spam-Status': 'No, score=-5', 'X-Original-To': 'someone@example.net' },
    });
    const id = /^250 Message queued as ([A-Za-z0-9]+)$/.exec(info.response)![1];
    const [m] = await sql(s, 'select headers from messages where id = ?', [id]);
    expect(m.headers).toEqual([{ name: 'X-Campaign', value: 'relay' }]);
  });
});

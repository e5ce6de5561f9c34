import { seedDomain } from '../support/factories.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { settled, until } from '../sending/helpers.js';

/**
 * Delivery hands the built message straight to the transport's connection pool
 * (src/modules/mail/raw-send.ts) rather than through nodemailer's sendMail: the SMTP envelope must
 * still be what sendMail made of it. An internationalized recipient domain goes out in its ASCII
 * (punycode) form, so a plain-ASCII mailbox needs no SMTPUTF8 from the server (smtp-server reports
 * the domain back in Unicode, so whether MAIL FROM asked for SMTPUTF8 is what tells the two apart).
 */
describe('the SMTP envelope of a delivered email', () => {
  let sink: SmtpSink;
  let s: TestServer;
  let domain: { id: string; name: string };

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
    domain = await seedDomain(s, { dkim: true });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  it('names an internationalized recipient domain in punycode, and the cc and bcc after the recipient', async () => {
    const local = `leser-${Date.now()}`;
    const res = await s.rest('POST', '/email', {
      body: {
        from: { email: `news@${domain.name}`, name: 'News' },
        to: [{ email: `${local}@bücher.example.com`, name: 'Leser' }],
        cc: [{ email: `${local}-cc@example.net` }],
        bcc: [{ email: `${local}-bcc@example.net` }],
        subject: 'Hallo',
        text: 'Hallo',
      },
    });
    expect(res.status).toBe(202);
    const [email] = await settled(s, res.headers.get('x-message-id')!);
    expect(email.status).toBe('delivered');
    const got = await until(async () => sink.received.find((m) => m.to[0] === `${local}@bücher.example.com`));
    expect(got.to).toEqual([`${local}@bücher.example.com`, `${local}-cc@example.net`, `${local}-bcc@example.net`]);
    expect(got.from).toMatch(/^bounces\+/);
    // Unicode on the wire would have needed SMTPUTF8; its punycode form does not.
    expect(got.smtputf8).toBe(false);
  });
});

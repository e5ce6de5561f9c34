import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from '../sending/helpers.js';

/** Mail for an inbound route arrives at the SMTP listener from another server, without logging in. */
let s: TestServer;
let sink: SmtpSink;
let domain: { id: string; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  domain = await seedDomain(s);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true });

it('routes mail for a route address and forwards it; other recipients still need AUTH', async () => {
  // On the account's verified domain: forwarded without a confirmation (see forwards.test.ts).
  const forwardTo = `desk${Date.now()}@${domain.name}`;
  const created = await s.rest('POST', '/inbound', {
    body: { domain_id: domain.id, name: 'support', domain_enabled: false, forwards: [{ type: 'email', value: forwardTo }] },
  });
  expect(created.status).toBe(201);
  const address = created.body.data.address as string;
  const info = await mx().sendMail({ from: 'alice@sender.example', to: address, subject: 'Help please', text: 'It broke.' });
  expect(info.response).toMatch(/^250 /);
  const got = await sink.waitFor(forwardTo);
  expect(got.raw).toMatch(/^Subject: Help please/m);
  const rows = await until(async () => {
    const r = await sql(s, 'select status, subject from inbound_messages where inbound_id = ?', [created.body.data.id]);
    return r.length ? r : null;
  });
  expect(rows[0]).toMatchObject({ status: 'forwarded', subject: 'Help please' });
  const refused = await mx().sendMail({ from: 'alice@sender.example', to: 'nobody@example.net', subject: 'x', text: 'x' }).catch((e) => e);
  expect(refused.responseCode).toBe(530);
});

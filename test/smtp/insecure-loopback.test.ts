import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawSmtp } from './raw-client.js';

/**
 * SMTP_ALLOW_INSECURE_AUTH_LOOPBACK=true: a client on loopback may log in without STARTTLS (off
 * by default: relay.test.ts has the 538). Addresses that are not loopback cannot be reached from
 * a test; units.test.ts covers the rule for them.
 */
let s: TestServer;
let domain: { id: string; name: string };
let user: { username: string; password: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'smtp'], env: { SMTP_PORT: '0', SMTP_ALLOW_INSECURE_AUTH_LOOPBACK: 'true' } });
  domain = await seedDomain(s);
  user = (await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'local' } })).body.data;
}, 60_000);
afterAll(() => s?.close());

it('lists AUTH and accepts a login in the clear from loopback', async () => {
  const c = await rawSmtp(s.app.smtpPort!);
  expect(await c.send('EHLO test')).toMatch(/AUTH PLAIN LOGIN/);
  expect(await c.send(`AUTH PLAIN ${Buffer.from(`\0${user.username}\0${user.password}`).toString('base64')}`)).toMatch(/^235 /);
  c.close();

  const local = nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true, auth: { user: user.username, pass: user.password } });
  const info = await local.sendMail({ from: `app@${domain.name}`, to: 'x@example.net', subject: 'local', text: 'hi' });
  expect(info.response).toMatch(/^250 Message queued as /);
});

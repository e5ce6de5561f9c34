import nodemailer from 'nodemailer';
import { smtpSessions, sweepSmtp, type SmtpTarget } from '../support/hostile-smtp.js';
import { DataWatch, emptyReport } from '../support/sweep-check.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

/**
 * The SMTP part of the bad-input sweep (`npm run bench:sweep` runs the same sessions): garbage,
 * out-of-order and oversized commands, bad logins, broken MIME and dropped connections. Each
 * gets refusals in time, changes nothing unless it queued a message, and the listener still
 * relays a valid message afterwards.
 */
const MAX_BYTES = 100_000;
let s: TestServer;
let watch: DataWatch;
let target: SmtpTarget;
beforeAll(async () => {
  // No worker: a queued message stays as it was queued while the checksums compare.
  s = await startTestServer({ roles: ['api', 'smtp'], env: { SMTP_PORT: '0', SMTP_MAX_MESSAGE_BYTES: String(MAX_BYTES) } });
  const domain = await seedDomain(s);
  const res = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'sweep' } });
  if (res.status !== 201) throw new Error(`smtp user: ${res.status} ${res.text}`);
  target = { port: s.app.smtpPort!, domain: domain.name, username: res.body.data.username, password: res.body.data.password, maxBytes: MAX_BYTES };
  watch = new DataWatch(s.dbUrl, { smtp_users: ['accessed_at', 'updated_at'] });
  await watch.start();
});
afterAll(async () => {
  await watch?.close();
  await s?.close();
});

describe('bad-input sweep over SMTP', () => {
  it.each(smtpSessions().map((sess) => [sess.label, sess] as const))('%s', async (_label, sess) => {
    const report = emptyReport();
    await sweepSmtp(target, [sess], watch, report);
    expect({ errors: report.serverErrors, shape: report.shapeViolations, dataChanges: report.dataChanges }).toEqual({ errors: [], shape: [], dataChanges: [] });
  });

  it('still relays a valid message afterwards', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1', port: target.port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, auth: { user: target.username, pass: target.password },
    });
    const info = await transport.sendMail({ from: `app@${target.domain}`, to: 'after-sweep@example.net', subject: 'after', text: 'still here' });
    expect(info.response).toMatch(/^250 Message queued as /);
  });
});

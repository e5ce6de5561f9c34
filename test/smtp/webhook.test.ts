import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createWebhook, driveUntil } from '../webhooks/engine-support.js';

/**
 * Mail sent over SMTP is delivered and its webhook fires, carrying the id of the `250 Message
 * queued as <id>` reply as the event's `message_id`.
 */
let s: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', WEBHOOK_ALLOW_PRIVATE: 'true' } });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

it('fires activity.sent and activity.delivered with the queued id, signed', async () => {
  const domain = await seedDomain(s, { dkim: true });
  await createWebhook(s, receiver, { domainId: domain.id, events: ['activity.sent', 'activity.delivered'], path: '/smtp' });
  const created = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'app' } });
  const user = created.body.data as { username: string; password: string };
  const client = nodemailer.createTransport({
    host: '127.0.0.1', port: s.app.smtpPort!, secure: false, requireTLS: true, auth: { user: user.username, pass: user.password }, tls: { rejectUnauthorized: false },
  });
  const to = `over-smtp${Date.now()}@example.net`;
  const info = await client.sendMail({ from: `app@${domain.name}`, to, subject: 'Via SMTP', text: 'hello' });
  const queued = /^250 Message queued as ([a-z0-9]+)$/.exec(info.response)![1];
  const events = () => receiver.received('/smtp').filter((r) => r.json?.type?.startsWith('activity.'));
  await driveUntil(s, async () => events().length >= 2);
  for (const r of events()) {
    expect(r.verified).toBe(true);
    expect(r.json.data).toMatchObject({ message_id: queued, email: to, subject: 'Via SMTP' });
  }
  expect(events().map((r) => r.json.type).sort()).toEqual(['activity.delivered', 'activity.sent']);
});

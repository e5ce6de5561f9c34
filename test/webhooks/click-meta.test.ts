import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createWebhook, driveUntil } from './engine-support.js';
import { CHROME, hit, sendAndCapture, trackingLinks } from '../tracking/helpers.js';

/**
 * A click's `activity.*` event carries, in `meta`, the link and the client that followed
 * it (what tracking stores), delivered to a real receiver after a real hit on the tracking URL.
 */
let s: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  // TRUST_PROXY so the client address is one the test chooses, not the loopback every hit has.
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', TRUST_PROXY: 'true' } });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

it('clicked events carry url, ip and user_agent in meta; opened and sent keep []', async () => {
  const domain = await seedDomain(s, { dkim: true });
  const settings = await s.rest('PUT', `/domains/${domain.id}/settings`, { body: { track_opens: true, track_clicks: true } });
  expect(settings.status).toBe(200);
  await createWebhook(s, receiver, {
    domainId: domain.id,
    events: ['activity.sent', 'activity.opened', 'activity.clicked', 'activity.clicked_unique'],
    path: '/clicks',
  });
  const mail = await sendAndCapture(s, {
    from: { email: `news@${domain.name}` },
    to: [{ email: `clicker-${Date.now()}@example.net` }],
    subject: 'Tracked',
    html: '<html><body><p><a href="https://shop.example/offer?a=1&amp;b=2">Offer</a></p></body></html>',
    text: 'Offer',
  });
  const [link] = trackingLinks(mail.html!, 'c');
  const [pixel] = trackingLinks(mail.html!, 'o');
  const clicked = await hit(s, link, { ua: CHROME, headers: { 'x-forwarded-for': '81.2.69.160' } });
  expect(clicked.status).toBe(302);
  expect(clicked.headers.get('location')).toBe('https://shop.example/offer?a=1&b=2');
  expect((await hit(s, pixel, { ua: CHROME, headers: { 'x-forwarded-for': '81.2.69.160' } })).status).toBe(200);

  const events = () => receiver.received('/clicks').filter((r) => r.json?.type !== 'webhook.test' && r.json?.data?.email_id === mail.emailId);
  const want = ['activity.clicked', 'activity.clicked_unique', 'activity.opened', 'activity.sent'];
  await driveUntil(s, async () => want.every((t) => events().some((r) => r.json.type === t)), 30_000);
  const byType = (t: string) => events().find((r) => r.json.type === t)!;

  const meta = { url: 'https://shop.example/offer?a=1&b=2', ip: '81.2.69.160', user_agent: CHROME };
  for (const t of ['activity.clicked', 'activity.clicked_unique']) {
    expect(byType(t).verified).toBe(true);
    expect(byType(t).json.data.meta).toEqual(meta);
  }
  expect(byType('activity.opened').json.data.meta).toEqual([]);
  expect(byType('activity.sent').json.data.meta).toEqual([]);
}, 60_000);

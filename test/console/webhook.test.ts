import type { Browser } from 'playwright-core';
import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { acceptInvite, inviteLinkIn, launch, outsideRequests, signIn, watchedPage } from './browser.js';

/**
 * Journey 2: a webhook to a local receiver starts failing; the console's delivery log shows the
 * failed request and the receiver's answer; the webhook is fixed (a new URL) in the console and
 * its failed deliveries replayed from there, reaching the receiver.
 */

let s: TestServer;
let sink: SmtpSink;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startReceiver();
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, WEBHOOK_ALLOW_PRIVATE: 'true' } });
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await receiver?.close();
  await sink?.close();
});

it('shows a failing webhook in its log, and replays its deliveries once fixed', async () => {
  // Real DKIM keys: delivery signs the message.
  const domain = await seedDomain(s, { dkim: true });
  const admin = { email: `ops-${Date.now()}@example.test`, password: 'a long enough password' };
  expect((await s.rest('POST', '/users', { body: { email: admin.email, role: 'admin' } })).status).toBe(200);
  const w = await watchedPage(browser);
  const { page } = w;
  await acceptInvite(page, inviteLinkIn(s, (await sink.waitFor(admin.email)).raw), admin.password);
  await signIn(page, s, admin.email, admin.password);

  // Created while the receiver answers (the creation's test request must succeed) ...
  receiver.respond('/hook', { status: 200 });
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('link', { name: 'New webhook' }).click();
  await page.getByLabel('Name').fill('Orders');
  await page.getByLabel('URL').fill(receiver.url('/hook'));
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await page.getByRole('heading', { name: 'Webhook: Orders' }).waitFor();
  const log = page.getByRole('table', { name: 'Delivery log' });
  await log.locator('tr.ok', { hasText: 'webhook.test' }).waitFor();

  // The signing secret is hidden until asked for; rotating it shows the new one, which the API holds too.
  const secretOf = async () => (await s.gql('{ webhooks(domain_id: "' + domain.id + '", limit: 10, page: 1) { data { secret } } }')).body.data.webhooks.data[0].secret;
  await page.getByText('Signing secret: hidden').waitFor();
  await page.getByRole('button', { name: 'Show secret' }).click();
  expect(await page.locator('code').filter({ hasText: await secretOf() }).count()).toBe(1);
  const before = await secretOf();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByText('New secret in force').waitFor();
  const after = await secretOf();
  expect(after).not.toBe(before);
  await page.locator('code').filter({ hasText: after }).waitFor();
  receiver.secretFor('/hook', after);
  receiver.secretFor('/fixed', after);

  // ... then it breaks, and a delivery fails while the page is open.
  receiver.respond('/hook', { status: 400, body: 'unknown signature version' });
  const to = `buyer-${Date.now()}@example.net`;
  const sent = await s.rest('POST', '/email', { body: { from: { email: `shop@${domain.name}` }, to: [{ email: to }], subject: 'Order', text: 'Thanks' } });
  expect(sent.status).toBe(202);
  const failed = log.locator('tr.failed', { hasText: 'activity.delivered' });
  await failed.waitFor({ timeout: 45_000 });
  expect(await failed.innerText()).toMatch(/400[\s\S]*unknown signature version/);
  // Its payload, as sent, and the state that lets it be retried.
  await failed.getByRole('button', { name: 'Payload' }).click();
  const payload = JSON.parse(await page.getByLabel('Payload').innerText());
  expect(payload).toMatchObject({ type: 'activity.delivered', data: { email: to } });
  await page.getByText(/failed after 1 attempt, last answer 400/).waitFor();
  await page.getByRole('button', { name: 'Retry now' }).waitFor();
  await failed.getByRole('button', { name: 'Hide payload' }).click();

  // Fixed: a new URL (the save sends a test request, which now succeeds) ...
  receiver.respond('/fixed', { status: 200 });
  await page.getByLabel('URL').fill(receiver.url('/fixed'));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();

  // ... and the failed delivery replayed from the log.
  await page.getByRole('button', { name: 'Replay failed deliveries' }).click();
  await page.getByText('1 deliveries queued again.').waitFor();
  const [arrived] = await receiver.waitFor((all) => all.some((r) => r.path === '/fixed' && r.json?.type === 'activity.delivered'), 30_000);
  expect(arrived).toBeDefined();
  await log.locator('tr.ok', { hasText: 'activity.delivered' }).waitFor({ timeout: 30_000 });

  // The email's page lists that delivery, now delivered, and links to the webhook's log.
  await page.getByRole('link', { name: 'Email log', exact: true }).click();
  await page.getByRole('link', { name: 'Order', exact: true }).click();
  const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
  const row = deliveries.locator('tr', { hasText: 'activity.delivered' });
  await row.waitFor();
  expect(await row.innerText()).toMatch(/Orders[\s\S]*activity\.delivered[\s\S]*delivered[\s\S]*200/);
  await row.getByRole('link', { name: 'Orders' }).click();
  await page.getByRole('heading', { name: 'Webhook: Orders' }).waitFor();

  expect(outsideRequests(s, w.requests)).toEqual([]);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

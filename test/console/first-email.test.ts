import type { Browser } from 'playwright-core';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { accessibilityProblems, claimOwner, launch, outsideRequests, publishDnsRecords, signIn, watchedPage } from './browser.js';

/**
 * A new account in the sandbox (mail captured, the default transport), as its owner meets it:
 * from the owner link to the overview's checklist, a domain added and verified from it, a first
 * email read in the sandbox inbox, and a webhook whose delivery of the next email's events is
 * seen in its log and at its receiver. Every step is taken from the page the previous one leads to.
 */
let s: TestServer;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  receiver = await startReceiver();
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await receiver?.close();
});

it('goes from the owner link to a first email in the sandbox inbox and its webhook delivered', async () => {
  const w = await watchedPage(browser);
  const { page } = w;
  const email = `first-${Date.now()}@example.test`;
  const password = 'a first owner password';
  await claimOwner(page, s, { email, password, name: 'Fern', lastName: 'First' });
  await page.getByRole('link', { name: 'Open the console' }).click();
  await signIn(page, s, email, password);

  // The overview: a sandbox, and the first step to take.
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('note').getByText('Mail is kept on this machine').waitFor();
  await page.getByRole('link', { name: 'Add a sending domain' }).click();
  const name = `first-${Date.now().toString(36)}.example.com`;
  s.dns.addName(name);
  await page.getByLabel('New domain').fill(name);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('heading', { name: new RegExp(name) }).waitFor();
  await publishDnsRecords(page, s);
  await page.getByRole('button', { name: 'Verify now' }).click();
  await page.locator('.badge', { hasText: /^verified$/ }).waitFor();

  // The first email, read where sandbox mail goes.
  const to = `reader-${Date.now()}@example.net`;
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Send test email' }).click();
  await page.getByText(/Accepted as message/).waitFor();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sandbox inbox' }).click();
  const inbox = page.getByRole('table', { name: 'Captured emails' });
  // Captured once delivery has run: the inbox is read again until it shows.
  for (let tries = 0; !(await inbox.getByRole('row').filter({ hasText: to }).count()); tries++) {
    if (tries > 60) throw new Error('the test email never reached the sandbox inbox');
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('heading', { name: 'Sandbox inbox' }).waitFor();
  }
  await inbox.getByRole('row').filter({ hasText: to }).getByRole('link').click();
  await page.getByRole('heading', { name: 'Test email from the Postbox console' }).waitFor();
  await page.locator('.timeline', { hasText: 'delivered' }).waitFor();

  // Back to the overview: the next step is a webhook.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
  receiver.respond('/events', { status: 200 });
  await page.getByRole('link', { name: 'Add a webhook to hear about deliveries, bounces and opens' }).click();
  await page.getByRole('link', { name: 'New webhook' }).click();
  await page.getByLabel('Name').fill('Deliveries');
  await page.getByLabel('URL').fill(receiver.url('/events'));
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await page.getByRole('heading', { name: 'Webhook: Deliveries' }).waitFor();
  const hooks = await s.gql('{ domains(limit: 10) { data { id name } } }');
  const domainId = hooks.body.data.domains.data.find((d: { name: string }) => d.name === name).id;
  const secret = (await s.gql(`{ webhooks(domain_id: "${domainId}", limit: 10, page: 1) { data { secret } } }`)).body.data.webhooks.data[0].secret;
  receiver.secretFor('/events', secret);

  // A second email: its delivery reaches the receiver, signed, and the log says so.
  const second = `second-${Date.now()}@example.net`;
  await page.goto(`${s.url}/#/domains/${domainId}`);
  await page.getByLabel('To', { exact: true }).fill(second);
  await page.getByRole('button', { name: 'Send test email' }).click();
  await page.getByText(/Accepted as message/).waitFor();
  const [delivered] = await receiver.waitFor((all) => all.some((r) => r.json?.type === 'activity.delivered' && JSON.stringify(r.json.data).includes(second)), 45_000);
  expect(delivered).toBeDefined();
  expect(receiver.received('/events').filter((r) => r.json?.type === 'activity.delivered').every((r) => r.verified)).toBe(true);
  await page.goto(`${s.url}/#/webhooks`);
  await page.getByRole('link', { name: 'Deliveries' }).click();
  await page.getByRole('table', { name: 'Delivery log' }).locator('tr.ok', { hasText: 'activity.delivered' }).waitFor({ timeout: 30_000 });
  expect(await accessibilityProblems(page)).toEqual([]);

  // Every step done (the account's API token was made with it): the checklist has gone.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByText('Webhooks failing (24 h)').waitFor();
  // (Shown from the cache first, then as read again.)
  await page.getByRole('heading', { name: /^Get started/ }).waitFor({ state: 'detached' });
  expect(outsideRequests(s, w.requests)).toEqual([]);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

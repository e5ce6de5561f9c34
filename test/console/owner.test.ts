import Fastify from 'fastify';
import type { Browser } from 'playwright-core';
import { registerConsole } from '../../src/http/console.js';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { accessibilityProblems, claimOwner, launch, outsideRequests, publishDnsRecords, screenshotPath, signIn, signInWithToken, watchedPage } from './browser.js';
import { waitFor } from '../email-log/helpers.js';

/**
 * Journey 1: the owner claims the account through the first-start link (setting a password),
 * signs in with it, adds a domain, publishes the DNS records the console shows,
 * verifies it, sends a test email from the console and watches queued -> delivered arrive live on
 * the activity page. Takes docs/console.md's screenshots on the way.
 */

let s: TestServer;
let sink: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  // Held a moment, so "delivered" arrives after the activity page shows "queued".
  sink = await startSmtpSink({ holdMs: 1500 });
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await sink?.close();
});

it('serves the console at / under a CSP with no other origin, and hashed assets as immutable', async () => {
  const res = await fetch(`${s.url}/`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/https?:|\*/);
  const html = await res.text();
  const script = html.match(/src="(\/assets\/[^"]+\.js)"/)![1];
  const asset = await fetch(`${s.url}${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect((await fetch(`${s.url}/assets/..%2Fpackage.json`)).status).toBe(404);
  expect((await fetch(`${s.url}/assets/nothing-here.js`)).status).toBe(404);
});

it('answers / with how to build the console when console/dist is missing', async () => {
  const app = Fastify();
  registerConsole(app, '/nonexistent/console/dist');
  const res = await app.inject({ method: 'GET', url: '/' });
  expect(res.statusCode).toBe(503);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.body).toContain('npm run console:build');
  expect((await app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode).toBe(404);
  await app.close();
});

it('adds a domain, verifies it, sends a test email and shows queued then delivered live', async () => {
  const w = await watchedPage(browser);
  const { page } = w;
  const email = `owner-${Date.now()}@example.test`;
  const password = 'correct horse battery staple';
  await claimOwner(page, s, { email, password, name: 'Olive', lastName: 'Owner' });
  await signIn(page, s, email, password);
  await page.getByText(`${email} (admin)`).waitFor();

  const name = `console-${Date.now().toString(36)}.example.com`;
  s.dns.addName(name);
  await page.getByRole('link', { name: 'Domains' }).click();
  await page.getByLabel('New domain').fill(name);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('heading', { name: new RegExp(name) }).waitFor();

  // Publish what the page says to publish, read from its DNS table.
  const rows = await publishDnsRecords(page, s);
  await page.getByRole('button', { name: 'Verify now' }).click();
  await page.locator('.badge', { hasText: /^verified$/ }).waitFor();
  // Each record says it was found, the optional ones too (all were published).
  const statuses = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[1]?.textContent));
  expect(statuses).toEqual(statuses.map(() => '✓ Found'));

  // The activity page, open before the email exists: what it shows next comes over SSE.
  // A second tab of the same browser: the session cookie signs it in.
  const watcher = { ...w, page: await w.context.newPage(), requests: [] as string[], problems: [] as string[] };
  watcher.page.on('request', (req) => watcher.requests.push(req.url()));
  watcher.page.on('pageerror', (err) => watcher.problems.push(`page error: ${err.message}`));
  await watcher.page.goto(`${s.url}/`);
  await watcher.page.getByRole('link', { name: 'Activity' }).click();
  await watcher.page.getByText('Live: new events appear at the top.').waitFor();

  const to = `someone-${Date.now()}@example.net`;
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Send test email' }).click();
  await page.getByText(/Accepted as message/).waitFor();

  const table = watcher.page.getByRole('table', { name: 'Activity' });
  await table.locator('tr[data-event="queued"]', { hasText: to }).waitFor({ timeout: 15_000 });
  // Not there yet: the sink holds the message; it arrives without a reload.
  expect(await table.locator('tr[data-event="delivered"]', { hasText: to }).count()).toBe(0);
  // Generous: the machine the tests share may be busy.
  await table.locator('tr[data-event="delivered"]', { hasText: to }).waitFor({ timeout: 45_000 });
  expect((await sink.waitFor(to)).raw).toContain('Test email from the Postbox console');

  await watcher.page.screenshot({ path: screenshotPath('activity') });
  await page.screenshot({ path: screenshotPath('domain') });

  // Keyboard: the menu is real links.
  await watcher.page.getByRole('link', { name: 'Email log' }).focus();
  await watcher.page.keyboard.press('Enter');
  await watcher.page.getByRole('link', { name: 'Test email from the Postbox console' }).first().click();
  await watcher.page.getByRole('heading', { name: 'Test email from the Postbox console' }).waitFor();
  await watcher.page.locator('.timeline', { hasText: 'delivered' }).waitFor();

  for (const x of [w, watcher]) {
    expect(outsideRequests(s, x.requests)).toEqual([]);
    expect(x.problems).toEqual([]);
  }

  // Signing out ends the session for every tab: a reload shows the login page.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await watcher.page.reload();
  await watcher.page.getByRole('button', { name: 'Sign in' }).waitFor();
  await w.context.close();
}, 120_000);

it('is readable at 360 px: nothing wider than the screen', async () => {
  const w = await watchedPage(browser, { width: 360 });
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  for (const path of ['domains', 'activity', 'tokens', 'webhooks']) {
    await w.page.goto(`${s.url}/#/${path}`);
    await w.page.locator('main h1').waitFor();
    // Lists have loaded (a table row, or nothing to list), so their width counts.
    await w.page.waitForLoadState('networkidle');
    const width = await w.page.evaluate(() => document.documentElement.scrollWidth);
    expect({ path, width }).toEqual({ path, width: 360 });
  }
  expect(w.problems).toEqual([]);
  await w.context.close();
});

it('opens every page of the menu without an error', async () => {
  // A domain of its own, so the pages that list a domain's rows ask for them.
  await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  const menu = w.page.getByRole('navigation', { name: 'Console' });
  const hrefs = async () => (await menu.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))) as string[];
  expect(await hrefs()).toEqual(expect.arrayContaining(['#/domains', '#/activity', '#/emails', '#/webhooks', '#/analytics', '#/templates', '#/suppressions', '#/tokens', '#/smtp-users', '#/users', '#/verification', '#/monitors']));
  // SMS shows once the account has a number.
  expect(await hrefs()).not.toContain('#/sms');
  const assigned = await s.gql(
    'mutation($id: ID!, $n: String!) { operator_assign_sms_number(account_id: $id, telephone_number: $n) { id } }',
    { id: await accountIdOf(s), n: '+15550001234' },
    OPERATOR_TOKEN,
  );
  expect(assigned.body.errors).toBeUndefined();
  await w.page.reload();
  await menu.getByRole('link', { name: 'SMS' }).waitFor();
  const paths = await hrefs();
  const failures: string[] = [];
  for (const href of paths) {
    await w.page.goto(`${s.url}/${href}`);
    await w.page.locator('main h1').waitFor();
    await w.page.waitForLoadState('networkidle');
    for (const alert of await w.page.getByRole('alert').allInnerTexts()) failures.push(`${href}: ${alert}`);
    for (const problem of await accessibilityProblems(w.page)) failures.push(`${href}: ${problem}`);
  }
  // And on a phone: no page is wider than its screen (a wide list scrolls in its own box).
  await w.page.setViewportSize({ width: 390, height: 844 });
  for (const href of paths) {
    await w.page.goto(`${s.url}/${href}`);
    await w.page.locator('main h1').waitFor();
    await w.page.waitForLoadState('networkidle');
    const width = await w.page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) failures.push(`${href}: ${width} px wide at 390`);
  }
  expect(failures).toEqual([]);
  expect(w.problems).toEqual([]);
  // Every page's queries and mutations went by id (codegen's persisted documents), none as text.
  expect(w.textOperations).toEqual([]);
  await w.context.close();
});

it("shows an email's HTML in a sandboxed frame, scripts not run", async () => {
  const domain = await seedDomain(s);
  const sent = await s.rest('POST', '/email', {
    body: { from: { email: `news@${domain.name}` }, to: [{ email: 'reader@example.net' }], subject: 'Framed', html: '<h2>Inside the frame</h2><p>Hello</p><script>parent.document.title = "ran"</script>', text: 'Hello' },
  });
  expect(sent.status).toBe(202);
  const listed = await s.gql(`{ emails(domain_id: "${domain.id}") { id } }`);
  const [{ id }] = listed.body.data.emails;
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/emails/${id}`);
  await w.page.getByRole('heading', { name: 'Framed' }).waitFor();
  const frame = w.page.locator('iframe[title="Email content"]');
  expect(await frame.getAttribute('sandbox')).toBe('');
  await w.page.frameLocator('iframe[title="Email content"]').getByRole('heading', { name: 'Inside the frame' }).waitFor();
  expect(await w.page.title()).toBe('Email log · Postbox console');
  await w.context.close();
});

it("shows a bounced email's server answer, its diagnostic and what to do", async () => {
  const domain = await seedDomain(s, { dkim: true });
  const to = `gone-${Date.now()}@example.net`;
  sink.refuse(to, 550, '5.7.32 The From: header is not aligned with the authenticated SPF or DKIM domain - gsmtp');
  const sent = await s.rest('POST', '/email', { body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Bounces', text: 'x' } });
  expect(sent.status).toBe(202);
  const id = await waitFor('the hard bounce', async () => {
    const res = await s.gql(`{ emails(domain_id: "${domain.id}") { id status } }`);
    const e = res.body.data.emails[0];
    return e?.status === 'hard_bounced' ? e.id : null;
  }, 30_000);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/emails/${id}`);
  await w.page.getByRole('heading', { name: 'Server answer' }).waitFor();
  await w.page.getByText(/5\.7\.32 The From: header is not aligned/).waitFor();
  await w.page.getByText('dmarc alignment', { exact: true }).waitFor();
  await w.page.getByText(/The From: address failed DMARC/).waitFor();
  await w.context.close();
}, 60_000);

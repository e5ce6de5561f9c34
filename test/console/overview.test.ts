import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { emailsOf, send } from '../email-log/helpers.js';
import { inviteAndAccept } from '../users/helpers.js';
import { accessibilityProblems, launch, outsideRequests, screenshotPath, signInWithToken, watchedPage } from './browser.js';

/**
 * The landing page and the sandbox inbox: a new account lands on the overview, which says mail
 * is captured and what is left to set up; once an email went out, its count shows there and the
 * email itself is in the sandbox inbox, opened as its email in the log. At 1280 and 390 px, with
 * no serious accessibility violation.
 */
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer();
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

it('lands on the overview, which follows the setup and the sending, and opens a captured email from the inbox', async () => {
  const w = await watchedPage(browser);
  const { page } = w;
  await signInWithToken(page, s, ADMIN_TOKEN);
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('note').getByText('Mail is kept on this machine').waitFor();
  const checklist = page.getByRole('list').filter({ hasText: 'Add a sending domain' });
  await checklist.getByRole('link', { name: 'Add a sending domain' }).waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);

  const domain = await seedDomain(s, { dkim: true });
  const subject = `Overview ${Date.now()}`;
  await emailsOf(s, await send(s, domain, { subject }), 'delivered');
  // The domain is added and verified, and the email delivered (kept by the capture transport).
  await page.reload();
  await checklist.getByText('Add a sending domain').waitFor();
  expect(await checklist.getByRole('link', { name: 'Add a sending domain' }).count()).toBe(0);
  expect(await checklist.getByRole('link', { name: 'Create an API token for your application' }).count()).toBe(0);
  const sent = page.getByRole('listitem').filter({ hasText: /^Sent/ });
  await sent.getByText('new in these 7 days').waitFor();
  expect(await sent.locator('strong').innerText()).toBe('1');
  await page.getByRole('listitem').filter({ hasText: /^Delivered/ }).getByText('100.0% of sent').waitFor();
  await page.screenshot({ path: screenshotPath('overview') });

  await page.getByRole('link', { name: 'Read it in the sandbox inbox.' }).click();
  await page.getByRole('heading', { name: 'Sandbox inbox' }).waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('inbox') });
  await page.getByRole('table', { name: 'Captured emails' }).getByRole('link', { name: subject }).click();
  await page.getByRole('heading', { name: subject }).waitFor();
  // The copy the capture transport kept: its headers, and its source as text.
  const headers = page.getByRole('table', { name: 'Headers' });
  expect(await headers.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Subject', exact: true }) }).locator('td').innerText()).toBe(subject);
  await page.getByText('Raw source').click();
  expect(await page.getByLabel('Raw source').innerText()).toContain(`Subject: ${subject}`);

  expect(outsideRequests(s, w.requests)).toEqual([]);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

it('says so when an address is not a page, and fits a 390 px phone', async () => {
  const w = await watchedPage(browser, { width: 390 });
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/no-such-page`);
  await w.page.getByRole('heading', { name: 'Not found' }).waitFor();
  // Lists with a row each: a domain and an email of it, delivered.
  const domain = await seedDomain(s, { dkim: true });
  const [email] = await emailsOf(s, await send(s, domain, { to: ['a-rather-long-recipient-address@example.org'] }), 'delivered');
  // A person, whose access page opens, and their invitation, kept in the sandbox inbox.
  const { user } = await inviteAndAccept(s, { email: `a-rather-long-person-address-${Date.now()}@example.org`, role: 'manager' });
  const [mail] = (await s.gql('{ sandbox_mails(limit: 10) { data { id } } }')).body.data.sandbox_mails.data;
  const paths = ['overview', 'inbox', `inbox/${mail.id}`, 'usage', 'activity', 'emails', `emails/${email.id}`, `domains/${domain.id}`, 'users', `users/${user.id}`];
  for (const path of paths) {
    await w.page.goto(`${s.url}/#/${path}`);
    await w.page.locator('main h1').waitFor();
    // Its lists have loaded (an email's page keeps a live stream open: the network never idles).
    await w.settled();
    expect({ path, width: await w.page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 390 });
    // A list wider than the screen scrolls in its box; no column is squeezed to a sliver.
    const narrowest = await w.page.evaluate(() => Math.min(...[...document.querySelectorAll('main td')].map((td) => td.getBoundingClientRect().width)));
    expect({ path, narrow: narrowest < 90 }).toEqual({ path, narrow: false });
    expect({ path, problems: await accessibilityProblems(w.page) }).toEqual({ path, problems: [] });
  }
  expect(w.problems).toEqual([]);
  await w.context.close();
});

it('names each page in the title, moves focus to its heading, and has an icon', async () => {
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  expect(await w.page.title()).toBe('Overview · Postbox console');
  await w.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
  await w.page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await w.page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  expect(await w.page.evaluate(() => document.activeElement?.textContent)).toBe('Webhooks');
  expect(await w.page.title()).toBe('Webhooks · Postbox console');
  const icon = await w.page.locator('link[rel=icon]').getAttribute('href');
  const res = await fetch(new URL(icon!, s.url));
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  await w.context.close();
});

it('shows every time in the viewer\'s own zone, UTC on hover', async () => {
  const domain = await seedDomain(s, { dkim: true });
  await emailsOf(s, await send(s, domain, { subject: 'In Tokyo time' }), 'delivered');
  const w = await watchedPage(browser, { timezoneId: 'Asia/Tokyo' });
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  for (const path of ['inbox', 'emails', 'activity']) {
    await w.page.goto(`${s.url}/#/${path}`);
    const when = w.page.locator('main table time').first();
    await when.waitFor();
    const utc = (await when.getAttribute('title'))!;
    expect(utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    const tokyo = new Date(new Date(`${utc.slice(0, 19).replace(' ', 'T')}Z`).getTime() + 9 * 3_600_000).toISOString();
    expect({ path, shown: await when.innerText() }).toEqual({ path, shown: `${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)}` });
  }
  await w.context.close();
});

it('shows the plan, its retention and the API quota left today', async () => {
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Plan and usage' }).click();
  const figure = (name: string) => w.page.getByRole('listitem').filter({ hasText: name }).locator('strong');
  await figure('Plan').waitFor();
  // The test server puts new accounts on the free plan, whose mail is kept 7 days.
  expect(await figure('Plan').innerText()).toBe('free');
  expect(await figure('Mail and logs kept').innerText()).toBe('7 days');
  expect(await figure('API requests left today').innerText()).toMatch(/^[\d,]+ of [\d,]+$/);
  expect(await accessibilityProblems(w.page)).toEqual([]);
  await w.context.close();
});

import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, accessibilityProblems, launch, signIn, signInWithToken, watchedPage } from './browser.js';

/**
 * The Inbound routes page: a route created, edited and deleted through the console, each step
 * checked in the server's state; a forward the server refuses saves nothing; the page fits a
 * phone; a user without 'manage-inbound' is not offered it.
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

const ROUTES = `query($d: ID!) {
  inbounds_page(domain_id: $d, limit: 25, page: 1) {
    data { id name address enabled domain_enabled inbound_domain forwards { id type value } }
  }
}`;

interface StoredRoute {
  id: string;
  name: string;
  address: string;
  enabled: boolean;
  domain_enabled: boolean;
  inbound_domain: string | null;
  forwards: { id: string; type: string; value: string }[];
}

async function routesOf(domainId: string): Promise<StoredRoute[]> {
  const res = await s.gql(ROUTES, { d: domainId });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.inbounds_page.data;
}

/** The menu's Inbound routes page, showing `domainName`'s routes. */
async function openList(page: Page, domainName: string) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbound routes' }).click();
  await page.getByRole('heading', { name: 'Inbound routes', exact: true }).waitFor();
  const picker = page.getByRole('combobox', { name: /^Domain/ });
  await picker.locator('option', { hasText: domainName }).waitFor({ state: 'attached' });
  await picker.selectOption({ label: domainName });
}

it('creates a route, refuses a bad forward, edits and deletes it, the server agreeing at each step', async () => {
  const domain = await seedDomain(s);
  const w = await watchedPage(browser);
  const { page } = w;
  await signInWithToken(page, s, ADMIN_TOKEN);
  await openList(page, domain.name);
  await page.getByText('No inbound route on this domain yet').waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);

  // Two forwards, the webhook one with a URL the server refuses (http and https only): nothing is saved.
  await page.getByLabel('Name', { exact: true }).fill('Support');
  await page.getByLabel('Forward 1 email address').fill('support-team@example.net');
  await page.getByRole('button', { name: 'Add a forward' }).click();
  await page.getByLabel('Forward 2 kind').selectOption('webhook');
  await page.getByLabel('Forward 2 webhook URL').fill('ftp://hooks.example.com/inbound');
  await page.getByRole('button', { name: 'Create route' }).click();
  const refusal = page.getByRole('alert');
  await refusal.getByText('forward 2 (webhook URL)').waitFor();
  expect(await refusal.innerText()).toContain('Nothing was saved');
  expect(await page.getByLabel('Forward 2 webhook URL').getAttribute('aria-invalid')).toBe('true');
  expect(await routesOf(domain.id)).toEqual([]);

  await page.getByLabel('Forward 2 webhook URL').fill('https://hooks.example.com/inbound');
  await page.getByRole('button', { name: 'Create route' }).click();
  await page.getByRole('status').getByText('Created').waitFor();
  const [route, ...others] = await routesOf(domain.id);
  expect(others).toEqual([]);
  expect(route).toMatchObject({
    name: 'Support',
    enabled: true,
    domain_enabled: false,
    forwards: [
      { type: 'email', value: 'support-team@example.net' },
      { type: 'webhook', value: 'https://hooks.example.com/inbound' },
    ],
  });
  // Listed with its own address, and the form is blank for the next one.
  const row = page.getByRole('table', { name: 'Inbound routes' }).getByRole('row').filter({ hasText: 'Support' });
  await row.getByText(route.address).waitFor();
  await row.getByRole('button', { name: `Copy address: ${route.address}` }).waitFor();
  expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await accessibilityProblems(page)).toEqual([]);

  // Its page: rename and disable; the forwards, not changed, keep their ids (and signing secret).
  await row.getByRole('link', { name: 'Support' }).click();
  await page.getByRole('heading', { name: 'Inbound route: Support' }).waitFor();
  await page.getByText('waiting for its owner to open the confirmation link').waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  await page.getByLabel('Name', { exact: true }).fill('Support desk');
  await page.getByRole('checkbox', { name: 'Enabled', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').getByText('Saved.').waitFor();
  await page.getByRole('heading', { name: 'Inbound route: Support desk' }).waitFor();
  const [edited] = await routesOf(domain.id);
  expect(edited).toMatchObject({ id: route.id, name: 'Support desk', enabled: false, domain_enabled: false });
  expect(edited.forwards).toEqual(route.forwards);

  // Routing a subdomain too: saved, and the MX record to publish is shown with the server's target.
  await page.getByLabel('Also route mail for a subdomain of').check();
  await page.getByLabel('Inbound domain').fill(`in.${domain.name}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const mx = page.getByRole('table', { name: 'MX record to publish' });
  await mx.waitFor();
  const target = (await s.gql('query($id: ID!) { inbound(inbound_id: $id) { mxValues { target } } }', { id: route.id })).body.data.inbound.mxValues.target;
  await mx.getByRole('button', { name: `Copy value: ${target}` }).waitFor();
  await mx.getByRole('button', { name: `Copy host: in.${domain.name}` }).waitFor();
  expect((await routesOf(domain.id))[0]).toMatchObject({ domain_enabled: true, inbound_domain: `in.${domain.name}` });
  expect(await accessibilityProblems(page)).toEqual([]);

  // Deleted after the confirmation, back on the list, which is empty again.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete route' }).click();
  await page.getByRole('heading', { name: 'Inbound routes', exact: true }).waitFor();
  await page.getByText('No inbound route on this domain yet').waitFor();
  expect(await routesOf(domain.id)).toEqual([]);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 90_000);

it('fits a 390 px screen with a route listed and opened', async () => {
  const domain = await seedDomain(s);
  const made = await s.gql(
    'mutation($d: ID!, $i: String!, $f: [InboundForwardInput!]!) { create_inbound(domain_id: $d, name: "Orders from the web shop", forwards: $f, domain_enabled: true, inbound_domain: $i) { id } }',
    { d: domain.id, i: `orders.${domain.name}`, f: [{ type: 'webhook', value: 'https://hooks.example.com/a/rather/long/path/for/the/inbound/messages' }, { type: 'email', value: 'orders-team@example.net' }] },
  );
  expect(made.body.errors).toBeUndefined();
  const w = await watchedPage(browser, { width: 390 });
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await openList(w.page, domain.name);
  await w.page.getByRole('link', { name: 'Orders from the web shop' }).waitFor();
  expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await w.page.getByRole('link', { name: 'Orders from the web shop' }).click();
  await w.page.getByRole('table', { name: 'MX record to publish' }).waitFor();
  expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

it('offers the page to a user with manage-inbound only', async () => {
  const without = `no-inbound-${Date.now()}@example.test`;
  const withIt = `inbound-${Date.now()}@example.test`;
  expect((await s.rest('POST', '/users', { body: { email: without, role: 'Custom User', permissions: ['read-activity'] } })).status).toBe(200);
  expect((await s.rest('POST', '/users', { body: { email: withIt, role: 'Custom User', permissions: ['manage-inbound'] } })).status).toBe(200);
  const password = 'an inbound test password';

  const w = await watchedPage(browser);
  await acceptInvite(w.page, await inviteLink(s, without), password);
  await signIn(w.page, s, without, password);
  const menu = w.page.getByRole('navigation', { name: 'Console' });
  await menu.getByRole('link', { name: 'Activity' }).waitFor();
  expect(await menu.getByRole('link', { name: 'Inbound routes' }).count()).toBe(0);
  await w.page.goto(`${s.url}/#/inbound`);
  await w.page.getByText('Your role may not see this page (403)').waitFor();
  expect(await w.page.getByRole('table').count()).toBe(0);
  await w.context.close();

  const v = await watchedPage(browser);
  await acceptInvite(v.page, await inviteLink(s, withIt), password);
  await signIn(v.page, s, withIt, password);
  await v.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbound routes' }).click();
  await v.page.getByRole('heading', { name: 'New inbound route' }).waitFor();
  expect(await v.page.getByRole('alert').count()).toBe(0);
  expect(v.problems).toEqual([]);
  await v.context.close();
}, 90_000);

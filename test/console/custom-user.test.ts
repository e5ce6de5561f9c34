import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, accessibilityProblems, launch, signIn, signInWithToken, watchedPage } from './browser.js';

/**
 * An invited Custom User, limited to one domain and one template, with two permissions (see
 * activity, edit templates): the admin picks those in the console, the person accepts, and then
 * sees and can reach only that, at desktop and phone widths.
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

async function template(name: string, domainId: string): Promise<string> {
  const res = await s.gql('mutation($n: String!, $d: ID) { create_template(name: $n, html: "<p>Hello</p>", auto_generate: true, domain_id: $d) { id } }', { n: name, d: domainId });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.create_template.id;
}

it('invites a Custom User limited to a domain and a template, who sees and reaches only those', async () => {
  const mine = await seedDomain(s);
  const other = await seedDomain(s);
  // Two templates of its domain: the user is limited to one of them.
  const allowedTemplate = await template('Allowed receipt', mine.id);
  const otherTemplate = await template('Other newsletter', mine.id);

  // The admin picks the role, two permissions and the limits.
  const admin = await watchedPage(browser);
  await signInWithToken(admin.page, s, ADMIN_TOKEN);
  await admin.page.goto(`${s.url}/#/users`);
  const email = `custom-${Date.now()}@example.test`;
  await admin.page.getByLabel('Email', { exact: true }).fill(email);
  await admin.page.getByLabel('Role', { exact: true }).selectOption('Custom User');
  await admin.page.getByLabel('See activity').check();
  await admin.page.getByLabel('Edit templates').check();
  await admin.page.getByText('Limit to some domains or templates').click();
  await admin.page.getByLabel(mine.name).check();
  await admin.page.getByLabel('Allowed receipt').check();
  await admin.page.getByRole('button', { name: 'Send invite' }).click();
  await admin.page.getByText(`Invitation sent to ${email}.`).waitFor();
  expect(await accessibilityProblems(admin.page)).toEqual([]);

  const w = await watchedPage(browser, { width: 390 });
  const password = 'a custom user password';
  await acceptInvite(w.page, await inviteLink(s, email), password);
  await signIn(w.page, s, email, password);
  const menu = w.page.getByRole('navigation', { name: 'Console' });
  expect(await menu.getByRole('link').allInnerTexts()).toEqual(['Overview', 'Activity', 'Sandbox inbox', 'Templates', 'Plan and usage', 'Your account']);

  // Only the allowed template is listed; the other one cannot be opened.
  await menu.getByRole('link', { name: 'Templates' }).click();
  await w.page.getByRole('link', { name: 'Allowed receipt' }).waitFor();
  expect(await w.page.getByRole('link', { name: 'Other newsletter' }).count()).toBe(0);
  await w.page.goto(`${s.url}/#/templates/${otherTemplate}`);
  await w.page.getByRole('alert').waitFor();
  // The code editor still opens, holding nothing of the template the user may not read.
  expect(await w.page.getByRole('textbox', { name: 'HTML', exact: true }).textContent()).toBe('');
  // Activity offers its domain only.
  await menu.getByRole('link', { name: 'Activity' }).click();
  // Once the picker has loaded its choices.
  await w.page.getByLabel('Domain').locator('option', { hasText: mine.name }).waitFor({ state: 'attached' });
  const domains = await w.page.getByLabel('Domain').locator('option').allInnerTexts();
  expect(domains).toEqual([mine.name]);
  expect(domains).not.toContain(other.name);
  // Pages it may not see say so.
  await w.page.goto(`${s.url}/#/tokens`);
  await w.page.getByText('Your role may not see this page (403)').waitFor();

  // The admin's list, open all along, shows the invitation turned into a user with its limits
  // (it is read again while invites are pending), with no reload.
  const row = admin.page.getByRole('row').filter({ hasText: email });
  await row.getByText(`${mine.name}, template Allowed receipt`).waitFor({ timeout: 30_000 });
  expect(allowedTemplate).toBeTruthy();
  expect(w.problems).toEqual([]);
  await w.context.close();
  await admin.context.close();
}, 90_000);

it("changes a person's access in place: a permission added shows its page, a limit lifted reaches every domain", async () => {
  const mine = await seedDomain(s);
  const other = await seedDomain(s);
  const email = `access-${Date.now()}@example.test`;
  const invited = await s.rest('POST', '/users', { body: { email, role: 'Custom User', permissions: ['read-activity'], domains: [mine.id] } });
  expect(invited.status).toBe(200);
  const w = await watchedPage(browser);
  const password = 'an access changing password';
  await acceptInvite(w.page, await inviteLink(s, email), password);
  await signIn(w.page, s, email, password);
  const menu = w.page.getByRole('navigation', { name: 'Console' });
  await menu.getByRole('link', { name: 'Activity' }).waitFor();
  expect(await menu.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);

  const admin = await watchedPage(browser);
  await signInWithToken(admin.page, s, ADMIN_TOKEN);
  await admin.page.goto(`${s.url}/#/users`);
  await admin.page.getByRole('link', { name: `Edit access of ${email}` }).click();
  await admin.page.getByRole('heading', { name: `Access of ${email}` }).waitFor();
  // What the person holds now is what the form starts from.
  expect(await admin.page.getByLabel('See activity').isChecked()).toBe(true);
  expect(await admin.page.getByLabel(mine.name).isChecked()).toBe(true);
  // A Custom User with nothing ticked could do nothing: the form waits for one permission.
  await admin.page.getByLabel('See activity').uncheck();
  expect(await admin.page.getByRole('button', { name: 'Save access' }).isDisabled()).toBe(true);
  await admin.page.getByLabel('See activity').check();
  await admin.page.getByLabel('Manage webhooks').check();
  await admin.page.getByLabel(mine.name).uncheck();
  await admin.page.getByRole('button', { name: 'Save access' }).click();
  await admin.page.getByText('Saved.').waitFor();
  expect(await accessibilityProblems(admin.page)).toEqual([]);

  const users = await s.gql('{ users(limit: 100) { email permissions domains { id } } }');
  const user = users.body.data.users.find((u: { email: string }) => u.email === email);
  expect({ permissions: [...user.permissions].sort(), domains: user.domains }).toEqual({ permissions: ['manage-webhook', 'read-activity'], domains: [] });
  // The person's next page load has the new page, and every domain to pick from.
  await w.page.reload();
  await menu.getByRole('link', { name: 'Webhooks' }).click();
  await w.page.getByLabel('Domain').locator('option', { hasText: other.name }).waitFor({ state: 'attached' });
  expect(w.problems).toEqual([]);
  expect(admin.problems).toEqual([]);
  await w.context.close();
  await admin.context.close();
}, 90_000);

import { readFileSync } from 'node:fs';
import type { Browser, Locator } from 'playwright-core';
import { ADMIN_TOKEN, OPERATOR_TOKEN, createAccount, startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { inviteLink } from '../users/helpers.js';
import { send, waitFor } from '../email-log/helpers.js';
import { sql } from '../webhooks/engine-support.js';
import { startReceiver } from '../support/receiver.js';
import { accessibilityProblems, acceptInvite, launch, signIn, signInWithToken, watchedPage } from './browser.js';

/**
 * Nothing silent: a session the server ended asks to sign in again, an action that cannot work
 * says why and what to do, a test email that nothing sends says so, and a saved setting says it
 * was saved.
 */
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

it('asks to sign in again when the session ended elsewhere, and returns to the page', async () => {
  const email = `ended-${Date.now()}@example.test`;
  const password = 'a long enough password';
  expect((await s.rest('POST', '/users', { body: { email, role: 'manager' } })).status).toBe(200);
  const w = await watchedPage(browser);
  await acceptInvite(w.page, await inviteLink(s, email), password);
  await signIn(w.page, s, email, password);
  await w.page.goto(`${s.url}/#/webhooks`);
  await w.page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await w.settled();
  // Signed out elsewhere: the server forgets the session.
  await sql(s, 'delete from user_sessions where user_id in (select id from account_users where email = ?)', [email]);
  await w.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Domains' }).click();
  await w.page.getByRole('alert').getByText('Your session ended').waitFor();
  await w.page.getByLabel('Email', { exact: true }).fill(email);
  await w.page.getByLabel('Password', { exact: true }).fill(password);
  await w.page.getByRole('button', { name: 'Sign in' }).click();
  await w.page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
  expect(w.page.url()).toMatch(/#\/domains$/);
  await w.context.close();
});

it('says what to do when a webhook is created before any domain exists', async () => {
  const fresh = await createAccount(s, 'No domain yet');
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, fresh.token);
  await w.page.goto(`${s.url}/#/webhooks/new`);
  await w.page.getByLabel('Name').fill('Orders');
  await w.page.getByLabel('URL').fill('https://example.com/hook');
  await w.page.getByRole('button', { name: 'Create webhook' }).click();
  await w.page.getByRole('alert').getByText('there is none yet').waitFor();
  await w.page.getByRole('alert').getByRole('link', { name: 'Add a domain first.' }).click();
  await w.page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
  // An empty list says what it would hold and how to start.
  await w.page.getByText('No domain yet. Add the domain you send from above').waitFor();
  await w.page.goto(`${s.url}/#/templates`);
  await w.page.getByText('No template yet.').waitFor();
  await w.context.close();
});

it('says a test email to a suppressed address was not sent', async () => {
  const domain = await seedDomain(s);
  const to = `bounced-${Date.now()}@example.org`;
  const added = await s.gql('mutation($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }', { d: domain.id, r: [to] });
  expect(added.body.errors).toBeUndefined();
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/domains/${domain.id}`);
  await w.page.getByLabel('To', { exact: true }).fill(to);
  await w.page.getByRole('button', { name: 'Send test email' }).click();
  await w.page.getByRole('alert').getByText(`Not sent: ${to} is on a suppression list (hard_bounced)`).waitFor();
  expect(await w.page.getByText('Accepted as message').count()).toBe(0);
  await w.context.close();
});

it('confirms a domain setting once the server saved it', async () => {
  const domain = await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/domains/${domain.id}`);
  await w.page.getByLabel('Precedence: bulk').click();
  await w.page.getByRole('status').getByText('Saved: Precedence: bulk is on.').waitFor();
  const read = await s.gql(`{ domain(domain_id: "${domain.id}") { domain_settings { precedence_bulk } } }`);
  expect(read.body.data.domain.domain_settings.precedence_bulk).toBe(true);
  await w.context.close();
});

it('shows a verification result by what it means for sending, not all alike', async () => {
  const added = await s.gql('mutation($id: ID!) { operator_add_verification_credits(account_id: $id, credits: 10) { id } }', { id: await accountIdOf(s) }, OPERATOR_TOKEN);
  expect(added.body.errors).toBeUndefined();
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/verification`);
  await w.page.getByLabel('Address', { exact: true }).fill('someone@gmial.com');
  await w.page.getByRole('button', { name: 'Verify address' }).click();
  const verdict = w.page.getByRole('status').filter({ hasText: 'Result:' });
  await verdict.getByText('do not send').waitFor();
  expect(await verdict.getAttribute('class')).toBe('verdict bad');
  await w.context.close();
});

it('turns a blocklist check into its result without a reload, and shows the DMARC record to publish', async () => {
  const domain = await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/monitors`);
  await w.page.getByLabel('IP, range or domain').fill('192.0.2.10');
  await w.page.getByRole('button', { name: 'Add monitor' }).click();
  const row = w.page.getByRole('row').filter({ hasText: '192.0.2.10' });
  await row.waitFor();
  // The check runs as a job; the page learns its end by itself.
  await row.getByText('clean', { exact: true }).waitFor({ timeout: 30_000 });

  await w.page.getByRole('form', { name: 'Add a DMARC monitor' }).getByLabel('Domain').selectOption({ label: domain.name });
  await w.page.getByRole('button', { name: 'Monitor DMARC' }).click();
  const card = w.page.locator('article.card').filter({ hasText: domain.name });
  await card.getByText(`publish this TXT record at _dmarc.${domain.name}`).waitFor();
  await card.getByRole('button', { name: 'Copy record' }).waitFor();
  await w.context.close();
}, 60_000);

it('makes a token from per-area choices, and lists its domain limit', async () => {
  const domain = await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/tokens`);
  const form = w.page.getByRole('form', { name: 'Create a token' });
  await form.getByLabel('Name').fill('Shop sender');
  await form.getByLabel('Limit to domain').selectOption({ label: domain.name });
  await form.getByRole('button', { name: 'Sending only' }).click();
  await form.getByLabel('Activity access').selectOption('read');
  await form.getByRole('button', { name: 'Create token' }).click();
  await w.page.getByText('Copy it now').waitFor();
  const listed = (await s.gql('{ tokens { name scopes domain_id } }')).body.data.tokens.find((t: { name: string }) => t.name === 'Shop sender');
  expect(listed).toEqual({ name: 'Shop sender', scopes: ['email_full', 'activity_read'], domain_id: domain.id });
  await w.page.getByRole('table', { name: 'Tokens' }).getByRole('row').filter({ hasText: 'Shop sender' }).getByText(domain.name).waitFor();
  await w.context.close();
});

it('previews a template at phone width and sends a test of it with the sample values', async () => {
  const domain = await seedDomain(s, { dkim: true });
  const made = await s.gql('mutation { create_template(name: "Receipt", subject: "Thanks {{ name }}", html: "<p>Hi {{ name }}</p>", auto_generate: true) { id } }');
  expect(made.body.errors).toBeUndefined();
  const id = made.body.data.create_template.id;
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/templates/${id}`);
  await w.page.getByLabel('Value for name').fill('Grace');
  const frame = w.page.locator('iframe[title="Template preview"]');
  await w.page.getByRole('radio', { name: /Phone/ }).check();
  expect(Math.round((await frame.boundingBox())!.width)).toBeLessThanOrEqual(375);
  const test = w.page.getByRole('form', { name: 'Send a test' });
  await test.getByLabel('Domain').selectOption({ label: domain.name });
  const to = `template-test-${Date.now()}@example.org`;
  await test.getByLabel('To').fill(to);
  await test.getByRole('button', { name: 'Send test' }).click();
  await test.getByText('Accepted as message').waitFor();
  // Delivered into the sandbox, personalised with the preview's value.
  const kept = await waitFor('the test in the capture store', async () =>
    ((await s.gql('{ captured_emails(limit: 50, page: 1) { data { to subject } } }')).body.data.captured_emails.data as { to: string; subject: string }[]).find((c) => c.to === to),
  20_000);
  expect(kept.subject).toBe('Thanks Grace');
  await w.context.close();
}, 60_000);

it('finds emails by subject and exports what the filters match as CSV, formulas made text', async () => {
  const domain = await seedDomain(s);
  for (const subject of ['=HYPERLINK("x") invoice', 'Invoice 2', 'Newsletter']) await send(s, domain, { subject });
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/emails`);
  await w.page.getByLabel('Domain').selectOption({ label: domain.name });
  await w.page.getByLabel('Subject contains').fill('invoice');
  const table = w.page.getByRole('table');
  await table.getByRole('link', { name: 'Invoice 2' }).waitFor();
  await expectRows(table, 2);
  const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8').trim().split('\n');
  expect(csv[0]).toBe('created_at,to,subject,status,id');
  expect(csv).toHaveLength(3);
  expect(csv.some((line) => line.includes(`"'=HYPERLINK(""x"") invoice"`))).toBe(true);
  await w.page.getByRole('status').getByText('Exported 2 emails.').waitFor();
  await w.context.close();
});

async function expectRows(table: Locator, n: number): Promise<void> {
  await waitFor(`${n} rows`, async () => (await table.locator('tbody tr').count()) === n, 10_000);
}

it('says a webhook was not saved because its test request failed, not that a field is wrong', async () => {
  const domain = await seedDomain(s);
  const receiver = await startReceiver();
  try {
    receiver.respond('/down', { status: 503 });
    const w = await watchedPage(browser);
    await signInWithToken(w.page, s, ADMIN_TOKEN);
    await w.page.goto(`${s.url}/#/webhooks/new`);
    await w.page.getByLabel('Domain').selectOption({ label: domain.name });
    await w.page.getByLabel('Name').fill('Orders');
    await w.page.getByLabel('URL').fill(receiver.url('/down'));
    await w.page.getByRole('button', { name: 'Create webhook' }).click();
    const alert = w.page.getByRole('alert');
    await alert.getByText('The test request failed, so nothing was saved.').waitFor();
    expect(await alert.innerText()).toContain('HTTP 503');
    await w.context.close();
  } finally {
    await receiver.close();
  }
});

it('adds a sender identity, resends its confirmation and deletes it', async () => {
  const domain = await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sender identities' }).click();
  await w.page.getByLabel('Domain').selectOption({ label: domain.name });
  await w.page.getByText('No sender identity on this domain.').waitFor();
  await w.page.getByLabel('Address, before the @').fill('billing');
  await w.page.getByLabel('Name', { exact: true }).fill('Billing');
  await w.page.getByRole('button', { name: 'Add identity' }).click();
  await w.page.getByText(`A confirmation mail went to billing@${domain.name}`).waitFor();
  const row = w.page.getByRole('table', { name: 'Sender identities' }).getByRole('row').filter({ hasText: `billing@${domain.name}` });
  await row.getByText('waiting for confirmation').waitFor();
  await row.getByRole('button', { name: 'Resend confirmation' }).click();
  await w.page.getByText('Confirmation mail sent again.').waitFor();
  const listed = await s.gql(`{ sender_identities(domain_id: "${domain.id}") { email resends } }`);
  expect(listed.body.data.sender_identities).toEqual([{ email: `billing@${domain.name}`, resends: 1 }]);
  w.page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Delete' }).click();
  await w.page.getByText('No sender identity on this domain.').waitFor();
  expect(await accessibilityProblems(w.page)).toEqual([]);
  await w.context.close();
});

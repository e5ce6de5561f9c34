import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { emailsOf } from '../email-log/helpers.js';
import { bulkJob } from '../../src/modules/bulk/bulk.job.js';
import { bulkWorker } from '../../src/modules/bulk/bulk.worker.js';
import { accessibilityProblems, launch, screenshotPath, signInWithToken, watchedPage } from './browser.js';

/**
 * The Recipients page (the addresses mail went to, each with its latest emails, deleted with a
 * confirmation) and the Bulk email page (the bulk requests, one sent from a JSON array, followed
 * until its job completes, its refused message explained).
 */
let s: TestServer;
let browser: Browser;
let domain: { id: string; name: string };
const tag = Date.now().toString(36);
const alice = `alice-${tag}@example.org`;
const bob = `bob-${tag}@example.org`;

beforeAll(async () => {
  s = await startTestServer();
  browser = await launch();
  domain = await seedDomain(s, { dkim: true });
  for (const [to, subject] of [[alice, `For Alice ${tag}`], [bob, `For Bob ${tag}`]]) {
    const res = await s.rest('POST', '/email', { body: { from: { email: `sender@${domain.name}` }, to: [{ email: to }], subject, text: 'Hello' } });
    expect(res.status).toBe(202);
    await emailsOf(s, res.headers.get('x-message-id')!);
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const recipientsOnServer = async () =>
  ((await s.rest('GET', `/recipients?domain_id=${domain.id}&limit=100`)).body.data as { id: string; email: string }[]);

async function openRecipients(page: Page) {
  await page.goto(`${s.url}/#/recipients`);
  await page.getByRole('heading', { name: 'Recipients', level: 1 }).waitFor();
  await page.getByLabel('Domain').selectOption(domain.id);
}

it('lists the recipients mail went to, opens one and its email, and deletes one', async () => {
  const w = await watchedPage(browser);
  const { page } = w;
  page.on('dialog', (d) => void d.accept());
  await signInWithToken(page, s, ADMIN_TOKEN);
  await openRecipients(page);
  const table = page.getByRole('table', { name: 'Recipients' });
  await table.getByRole('link', { name: alice }).waitFor();
  await table.getByRole('link', { name: bob }).waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);

  await table.getByRole('link', { name: alice }).click();
  await page.getByRole('heading', { name: alice, level: 1 }).waitFor();
  const emails = page.getByRole('table', { name: 'Latest emails' });
  const row = emails.getByRole('row').filter({ hasText: `For Alice ${tag}` });
  await row.getByText('delivered').waitFor();
  expect(await emails.getByRole('row').count()).toBe(2);
  expect(await accessibilityProblems(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('recipient') });
  await row.getByRole('link', { name: `For Alice ${tag}` }).click();
  await page.getByRole('heading', { name: `For Alice ${tag}`, level: 1 }).waitFor();
  expect(page.url()).toMatch(/#\/emails\/[a-z0-9]+$/);

  // Deleted from its own page, with a confirmation: back to the list, and gone on the server too.
  const bobId = (await recipientsOnServer()).find((r) => r.email === bob)!.id;
  await page.goto(`${s.url}/#/recipients/${bobId}`);
  await page.getByRole('heading', { name: bob, level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Delete recipient' }).click();
  await page.getByRole('heading', { name: 'Recipients', level: 1 }).waitFor();
  await table.getByRole('link', { name: alice }).waitFor();
  expect(await table.getByRole('link', { name: bob }).count()).toBe(0);
  expect((await recipientsOnServer()).map((r) => r.email)).toEqual([alice]);
  const gone = await s.gql('query($id: ID!) { recipient(recipient_id: $id) { id } }', { id: bobId });
  expect(gone.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

it('says where recipients come from while a domain has none', async () => {
  const empty = await seedDomain(s);
  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/recipients`);
  await w.page.getByLabel('Domain').selectOption(empty.id);
  await w.page.getByText('A recipient appears here when mail is sent to it').waitFor();
  expect(await accessibilityProblems(w.page)).toEqual([]);
  await w.context.close();
});

it('sends a bulk request from the page and follows it until its job completes', async () => {
  const w = await watchedPage(browser);
  const { page } = w;
  await signInWithToken(page, s, ADMIN_TOKEN);
  await page.goto(`${s.url}/#/bulk`);
  await page.getByRole('heading', { name: 'Bulk email', level: 1 }).waitFor();
  await page.getByText('No bulk request yet').waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  const field = page.getByLabel('Emails: a JSON array');
  const submit = page.getByRole('button', { name: 'Send bulk request' });

  // What is not JSON never leaves the page.
  await field.fill('{ "from": oops }');
  await submit.click();
  await page.getByRole('alert').getByText('This is not valid JSON').waitFor();
  await field.fill('{ "subject": "not a list" }');
  await submit.click();
  await page.getByRole('alert').getByText('must be a JSON array').waitFor();
  expect((await s.gql('{ bulk_emails { id } }')).body.data.bulk_emails).toEqual([]);

  const valid = { from: { email: `bulk@${domain.name}` }, to: [{ email: `bulk-${tag}@example.org` }], subject: `Bulk ${tag}`, text: 'b' };
  await field.fill(JSON.stringify([valid, { from: { email: `bulk@${domain.name}` }, subject: 'nobody to send to', text: 'x' }], null, 2));
  await submit.click();
  await page.getByRole('heading', { name: 'Bulk request', level: 1 }).waitFor();
  const id = /#\/bulk\/([a-z0-9]+)$/.exec(page.url())?.[1];
  expect(id).toMatch(/^[a-z0-9]{24}$/);
  // The page reads the request again until the job is done.
  await page.locator('dd').getByText('completed', { exact: true }).waitFor({ timeout: 20_000 });
  const refused = page.getByRole('list', { name: 'Validation errors' }).getByRole('listitem').first();
  expect(await refused.innerText()).toMatch(/^Message 2 \(index 1\) was not sent:\s+to The to field is required\.$/);
  expect(await page.getByRole('list', { name: 'Message ids' }).getByRole('listitem').count()).toBe(1);
  expect(await accessibilityProblems(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('bulk-request') });

  const onServer = (await s.gql('query($id: ID!) { bulk_email(bulk_email_id: $id) { state validation_errors_count validation_errors messages_id } }', { id })).body.data.bulk_email;
  expect(onServer).toMatchObject({ state: 'completed', validation_errors_count: 1, validation_errors: { 'message.1.to': ['The to field is required.'] } });
  expect(onServer.messages_id).toHaveLength(1);
  expect(await page.getByRole('list', { name: 'Message ids' }).innerText()).toBe(onServer.messages_id[0]);

  await page.getByRole('link', { name: 'All bulk requests' }).click();
  const listed = page.getByRole('table', { name: 'Bulk requests' }).getByRole('row').filter({ hasText: id! });
  await listed.waitFor();
  expect((await listed.getByRole('cell').allInnerTexts()).slice(2)).toEqual(['completed', '1', '0', '1']);
  expect(await accessibilityProblems(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('bulk') });
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

it('follows a queued request until its job has run, without a reload', async () => {
  // A server without workers: the request stays queued until the job is run here by hand.
  const api = await startTestServer({ roles: ['api'] });
  const w = await watchedPage(browser);
  try {
    const sent = await api.rest('POST', '/bulk-email', { body: [{ subject: 'nobody to send to', text: 'x' }] });
    expect(sent.status).toBe(202);
    const id = sent.body.bulk_email_id as string;
    await signInWithToken(w.page, api, ADMIN_TOKEN);
    await w.page.goto(`${api.url}/#/bulk/${id}`);
    await w.page.getByText('(checked every few seconds)').waitFor();
    expect(await w.page.locator('dd .badge').innerText()).toBe('queued');
    const [job] = (await api.app.services.boss.fetch(bulkJob.name, { batchSize: 1 })) ?? [];
    await bulkWorker.run(job.data, api.app.services, { id: job.id, retryCount: 0, retryLimit: 0 });
    await api.app.services.boss.complete(bulkJob.name, job.id);
    await w.page.locator('dd').getByText('completed', { exact: true }).waitFor({ timeout: 10_000 });
    await w.page.getByText('Message 1 (index 0) was not sent').waitFor();
    expect(await w.page.getByText('(checked every few seconds)').count()).toBe(0);
  } finally {
    await w.context.close();
    await api.close();
  }
}, 60_000);

it('fits a 390 px phone on every page of both', async () => {
  const w = await watchedPage(browser, { width: 390 });
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  const recipient = (await recipientsOnServer())[0].id;
  const bulk = (await s.gql('{ bulk_emails { id } }')).body.data.bulk_emails[0].id;
  for (const path of ['recipients', `recipients/${recipient}`, 'bulk', `bulk/${bulk}`]) {
    await w.page.goto(`${s.url}/#/${path}`);
    await w.page.locator('main h1').waitFor();
    if (path === 'recipients') await w.page.getByLabel('Domain').selectOption(domain.id);
    await w.page.locator('main table, main dl').first().waitFor();
    await w.settled();
    expect({ path, width: await w.page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 390 });
    expect({ path, problems: await accessibilityProblems(w.page) }).toEqual({ path, problems: [] });
  }
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

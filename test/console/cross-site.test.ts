import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { inviteLink } from '../users/helpers.js';
import { addCredits, credits } from '../verification/setup.js';
import { acceptInvite, launch, signIn, watchedPage, startForeignSite, type ForeignSite } from './browser.js';

/**
 * Some /v1 GET routes change state (starting a paid verification list, re-checking a domain). A
 * SameSite=Lax cookie goes along on a cross-site top-level navigation, which cannot set the CSRF
 * header: such a navigation must start nothing, while the console (which sends the header) works.
 */

let s: TestServer;
let browser: Browser;
let evil: ForeignSite;

beforeAll(async () => {
  s = await startTestServer();
  browser = await launch();
  evil = await startForeignSite();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await evil?.close();
  await s?.close();
});

const listStatus = async (id: string) => (await s.rest('GET', `/email-verification/${id}`)).body.data.status.name as string;

it('a link on another site to a state-changing GET starts nothing with the cookie; the console still does', async () => {
  const email = `admin-${Date.now()}@example.test`;
  const password = 'an admin password';
  expect((await s.rest('POST', '/users', { body: { email, role: 'admin' } })).status).toBe(200);
  await addCredits(s, 10);
  const list = await s.rest('POST', '/email-verification', { body: { name: 'Cross-site', emails: ['not-an-address'] } });
  expect(list.status).toBe(201);
  const listId: string = list.body.data.id;
  const domain = await seedDomain(s);
  const creditsBefore = await credits(s);

  const w = await watchedPage(browser);
  const { page, context } = w;
  await acceptInvite(page, await inviteLink(s, email), password);
  await signIn(page, s, email, password);

  const targets = [`${s.url}/v1/email-verification/${listId}/verify`, `${s.url}/v1/domains/${domain.id}/verify`];
  const attacker = await context.newPage();
  for (const target of targets) {
    evil.page = `<!doctype html><a id="go" href="${target}">a prize</a>`;
    await attacker.goto(evil.url);
    const answered = attacker.waitForResponse((r) => r.url() === target);
    await attacker.click('#go');
    const res = await answered;
    // The browser did send the session cookie (a top-level GET navigation), and the service refused it.
    expect((await res.request().allHeaders()).cookie ?? '').toContain('pb_session=');
    expect([target, res.status()]).toEqual([target, 403]);
    expect(await res.text()).toContain('CSRF');
  }
  await attacker.close();
  expect(await listStatus(listId)).toBe('created');
  expect(await credits(s)).toBe(creditsBefore);

  // The console, sending its CSRF token, starts the same list.
  await page.bringToFront();
  await page.getByRole('link', { name: 'Verification' }).click();
  const row = page.getByRole('row', { name: /Cross-site/ });
  await row.getByRole('button', { name: 'Verify' }).click();
  await page.getByText(/verif/i).first().waitFor();
  const deadline = Date.now() + 15_000;
  while ((await listStatus(listId)) === 'created' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(await listStatus(listId)).not.toBe('created');
  expect(await credits(s)).toBeLessThan(creditsBefore);
  expect(w.problems).toEqual([]);
  await context.close();
}, 120_000);

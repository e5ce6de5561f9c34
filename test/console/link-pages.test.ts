import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { inviteLink } from '../users/helpers.js';
import { accessibilityProblems, launch, watchedPage, startForeignSite, type ForeignSite } from './browser.js';

/**
 * A page a token link opens (here the invitation) renders under its own CSP (its inline style
 * allowed by hash, nothing else) and cannot be framed by another site, where a hidden frame
 * could trick the invitee into submitting it.
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

it('renders the invitation page under its policy, and refuses to be framed by another site', async () => {
  const email = `framed-${Date.now()}@example.test`;
  expect((await s.rest('POST', '/users', { body: { email, role: 'manager' } })).status).toBe(200);
  const link = await inviteLink(s, email);

  const own = await watchedPage(browser);
  await own.page.goto(link);
  await own.page.getByRole('button', { name: 'Join' }).waitFor();
  // The inline style applied (its hash is in the policy) and nothing was refused.
  expect(await own.page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth)).toBe('448px');
  expect(own.problems).toEqual([]);
  // In the console's look, and as readable to assistive technology as the console.
  expect(await own.page.locator('header.top').innerText()).toBe('Postbox');
  expect(await accessibilityProblems(own.page)).toEqual([]);
  await own.context.close();

  const w = await watchedPage(browser);
  const refusals: string[] = [];
  w.page.on('console', (msg) => {
    if (/frame-ancestors|X-Frame-Options|Refused to (display|frame)/i.test(msg.text())) refusals.push(msg.text());
  });
  evil.page = `<!doctype html><p>win a prize</p><iframe id="f" src="${link}" width="600" height="400"></iframe>`;
  const framed = w.page.waitForResponse((r) => r.url() === link);
  await w.page.goto(evil.url);
  expect((await framed).status()).toBe(200);
  const deadline = Date.now() + 10_000;
  while (!refusals.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(refusals.length).toBeGreaterThan(0);
  // Nothing of the form reached the frame.
  const frame = w.page.frames().find((f) => f !== w.page.mainFrame());
  expect(await frame!.locator('button', { hasText: 'Join' }).count()).toBe(0);
  await w.context.close();
}, 120_000);

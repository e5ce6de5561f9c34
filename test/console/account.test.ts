import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { mailsTo } from '../support/mail.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, launch, signIn, watchedPage } from './browser.js';

/**
 * The console's account page: a user turns on two-factor authentication there (key shown,
 * code confirmed, recovery codes shown once) and is then asked for a code at sign-in; the login
 * page mails a password reset link.
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

it('turns on 2FA from the console, then asks for a code at sign-in; mails a reset link', async () => {
  const email = `manager-${Date.now()}@example.test`;
  const password = 'a manager password';
  expect((await s.rest('POST', '/users', { body: { email, role: 'manager' } })).status).toBe(200);
  const w = await watchedPage(browser);
  const { page } = w;
  await acceptInvite(page, await inviteLink(s, email), password);
  await signIn(page, s, email, password);

  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const key = (await page.locator('code').first().innerText()).trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) });
  await page.getByLabel('Code', { exact: true }).fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = (await page.locator('.secret pre').innerText()).trim().split('\n');
  expect(codes).toHaveLength(10);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The password alone is not enough now: the page asks for the code.
  await page.getByLabel('Authenticator code').waitFor();
  // The next period's code (one step of drift is accepted): the one used to confirm was spent.
  await page.getByLabel('Authenticator code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`${email} (manager)`).waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByText('Forgot your password?').click();
  await page.getByRole('button', { name: 'Mail me a reset link' }).click();
  await page.getByText('a reset link is on its way').waitFor();
  const [mail] = await mailsTo(s, email, 2);
  expect(mail.text).toMatch(/\/auth\/reset\?token=/);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { startTestServer, type TestServer } from '../support/server.js';
import { mailsTo } from '../support/mail.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, launch, signIn, watchedPage } from './browser.js';

/**
 * The console's account page: a user turns on two-factor authentication there (the key as a QR
 * code an authenticator app scans, code confirmed, recovery codes shown once) and is then asked for a code at sign-in; the login
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
  // What a phone does: read the QR code from the screen, and take the key from its link.
  const shot = PNG.sync.read(await page.getByRole('img', { name: 'QR code of the authenticator key' }).screenshot());
  // A CommonJS module whose exports are the function, with itself as `default` (what the types name).
  const scanned = jsqr.default(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  expect(scanned?.data).toMatch(/^otpauth:\/\/totp\//);
  const key = new URL(scanned!.data).searchParams.get('secret')!;
  expect(key).toBe((await page.locator('code').first().innerText()).trim());
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) });
  // A wrong code says so, once.
  await page.getByLabel('Code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  expect(await page.getByRole('alert').innerText()).toBe('The code is invalid.');
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

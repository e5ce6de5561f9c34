import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, launch, signIn, watchedPage, startForeignSite, type ForeignSite } from './browser.js';

/**
 * Journey 4: the console's session cookie does nothing for another site (SameSite and the CSRF
 * token), a request with the cookie but without the token or from another origin is refused,
 * and once signed out the same cookie reaches nothing.
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

const tokenNames = async () => (await s.rest('GET', '/token?limit=100')).body.data.map((t: { name: string }) => t.name) as string[];

it('refuses the session cross-site and without its CSRF token, and a signed-out cookie reaches nothing', async () => {
  const email = `admin-${Date.now()}@example.test`;
  const password = 'an admin password';
  expect((await s.rest('POST', '/users', { body: { email, role: 'admin' } })).status).toBe(200);
  const w = await watchedPage(browser);
  const { page, context } = w;
  await acceptInvite(page, await inviteLink(s, email), password);
  await signIn(page, s, email, password);
  const [cookie] = (await context.cookies(s.url)).filter((c) => c.name === 'pb_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  const session = `pb_session=${cookie.value}`;
  const csrf = await page.evaluate(async () => ((await (await fetch('/auth/session')).json()) as { csrf_token: string }).csrf_token);

  // Another site posts a form and a no-cors fetch at the API, in the signed-in browser.
  evil.page = `<!doctype html><form id="f" method="post" action="${s.url}/graphql" enctype="text/plain">
    <input name='{"query":"mutation { create_token(name: \\"evil-form\\", scopes: [\\"tokens_full\\"]) { id } }", "x":"' value='"}'>
    </form><script>
    fetch(${JSON.stringify(`${s.url}/v1/token`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ name: 'evil-fetch', scopes: ['tokens_full'] }) }).finally(() => document.getElementById('f').submit());
    </script>`;
  const attacker = await context.newPage();
  const formAnswer = attacker.waitForResponse((r) => r.url() === `${s.url}/graphql` && r.request().method() === 'POST');
  await attacker.goto(evil.url);
  const answered = await formAnswer;
  // The cookie did not go along (SameSite=Lax on a cross-site POST), and there is no CSRF token.
  expect(answered.status()).toBeGreaterThanOrEqual(400);
  expect((await answered.request().allHeaders()).cookie ?? '').not.toContain('pb_session');
  expect(await tokenNames()).not.toEqual(expect.arrayContaining(['evil-form']));
  expect(await tokenNames()).not.toContain('evil-fetch');

  // The cookie alone (say, from a sibling subdomain) is not enough: no token, or another origin, is 403.
  const mutation = JSON.stringify({ query: 'mutation { create_token(name: "no-csrf", scopes: ["tokens_full"]) { id } }' });
  const post = (path: string, headers: Record<string, string>, body = mutation) =>
    fetch(`${s.url}${path}`, { method: 'POST', headers: { cookie: session, 'content-type': 'application/json', ...headers }, body });
  expect((await post('/graphql', {})).status).toBe(403);
  expect((await post('/graphql', { 'x-csrf-token': 'not-the-token' })).status).toBe(403);
  expect((await post('/graphql', { 'x-csrf-token': csrf, origin: evil.url })).status).toBe(403);
  expect((await post('/v1/token', {}, JSON.stringify({ name: 'no-csrf', scopes: ['tokens_full'] }))).status).toBe(403);
  expect(await tokenNames()).not.toContain('no-csrf');
  // With its token, from its own origin, the same session works (what the console does).
  const own = await post('/graphql', { 'x-csrf-token': csrf, origin: new URL(s.url).origin }, JSON.stringify({ query: '{ domains { meta { total } } }' }));
  expect(own.status).toBe(200);
  expect((await own.json()).errors).toBeUndefined();

  // Signed out in the console: the same cookie and token now reach nothing.
  await page.bringToFront();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const asOld = { cookie: session, 'x-csrf-token': csrf, 'content-type': 'application/json' };
  expect((await fetch(`${s.url}/auth/session`, { headers: asOld })).status).toBe(401);
  expect((await fetch(`${s.url}/v1/domains`, { headers: asOld })).status).toBe(401);
  const gql = await fetch(`${s.url}/graphql`, { method: 'POST', headers: asOld, body: JSON.stringify({ query: '{ domains { meta { total } } }' }) });
  expect((await gql.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  const stream = await fetch(`${s.url}/graphql/stream`, {
    method: 'POST',
    headers: { ...asOld, accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { token_events { action } }' }),
  });
  const streamed = await stream.text();
  expect(stream.status === 401 || /UNAUTHENTICATED/.test(streamed)).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(w.problems).toEqual([]);
  await context.close();
}, 120_000);

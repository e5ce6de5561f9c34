import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { inviteLink } from '../users/helpers.js';
import { acceptInvite, accessibilityProblems, launch, outsideRequests, signIn, signInWithToken, watchedPage } from './browser.js';

/**
 * Journey 3: an invited designer sets a password through the invitation, signs in, edits
 * templates with the live preview, has no tokens page, and is refused (403) token mutations on
 * both surfaces with the session the console holds.
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

it('lets a designer edit templates and nothing of tokens', async () => {
  const email = `designer-${Date.now()}@example.test`;
  const password = 'a designer password';
  expect((await s.rest('POST', '/users', { body: { email, role: 'designer' } })).status).toBe(200);
  const w = await watchedPage(browser);
  const { page } = w;
  await acceptInvite(page, await inviteLink(s, email), password);
  await signIn(page, s, email, password);
  await page.getByText(`${email} (designer)`).waitFor();

  // Only what a designer may use is in the menu; #/tokens says the role may not see it, and lists nothing.
  const menu = page.getByRole('navigation', { name: 'Console' });
  expect(await menu.getByRole('link').allInnerTexts()).toEqual(['Overview', 'Templates', 'Plan and usage', 'Your account']);
  await page.goto(`${s.url}/#/tokens`);
  await page.getByRole('alert').getByText('Your role may not see this page (403)').waitFor();
  expect(await page.getByRole('table').count()).toBe(0);
  await menu.getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();

  // A new template, previewed live with a sample value, then saved and edited.
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Welcome');
  await page.getByLabel('Subject').fill('Hello {{ name }}');
  await page.getByRole('textbox', { name: 'HTML', exact: true }).fill('<h1>Hi {{ name }}</h1><p>Glad you came.</p>');
  await page.getByLabel('Value for name').fill('Grace');
  await page.getByText('Hello Grace').waitFor();
  const preview = page.frameLocator('iframe[title="Template preview"]');
  await preview.getByRole('heading', { name: 'Hi Grace' }).waitFor();
  expect(await page.locator('iframe[title="Template preview"]').getAttribute('sandbox')).toBe('');
  await page.getByRole('button', { name: 'Create template' }).click();
  await page.getByRole('heading', { name: 'Template: Welcome' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('Welcome (v2)');
  await page.getByRole('button', { name: 'Save template' }).click();
  await page.getByText('Saved.').waitFor();
  await page.getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('link', { name: 'Welcome (v2)' }).waitFor();
  const stored = await s.gql('{ templates { data { name variables } } }');
  expect(stored.body.data.templates.data).toEqual([{ name: 'Welcome (v2)', variables: { name: null } }]);

  // The console's own session (cookie and CSRF token) asking for tokens: refused on both surfaces.
  const refused = await page.evaluate(async () => {
    const csrf = ((await (await fetch('/auth/session')).json()) as { csrf_token: string }).csrf_token;
    const headers = { 'content-type': 'application/json', 'x-csrf-token': csrf };
    const gql = await fetch('/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'mutation { create_token(name: "x", scopes: ["email_full"]) { accessToken } }' }),
    });
    const list = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: '{ tokens { id } }' }) });
    const rest = await fetch('/v1/token', { method: 'POST', headers, body: JSON.stringify({ name: 'x', scopes: ['email_full'] }) });
    const templates = await fetch('/v1/templates', { headers });
    return { gql: await gql.json(), list: await list.json(), rest: rest.status, templates: templates.status };
  });
  expect(refused.gql.errors[0].extensions.code).toBe('FORBIDDEN');
  expect(refused.gql.errors[0].extensions.http.status).toBe(403);
  expect(refused.list.errors[0].extensions.code).toBe('FORBIDDEN');
  expect(refused.rest).toBe(403);
  expect(refused.templates).toBe(200);
  expect((await s.rest('GET', '/token')).body.data.map((t: { name: string }) => t.name)).not.toContain('x');

  expect(outsideRequests(s, w.requests)).toEqual([]);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

it("previews a stored template of huge loops with an error line, not a frozen tab", async () => {
  const hostile = '{% for i in (1..50000000) %}{% for j in (1..50000000) %}x{% endfor %}{% endfor %}';
  // Loops of ranges each small enough to allocate, nine million steps together.
  const loops = '{% for i in (1..3000) %}{% for j in (1..3000) %}x{% endfor %}{% endfor %}';
  const w = await watchedPage(browser);
  const { page } = w;
  await signInWithToken(page, s, ADMIN_TOKEN);
  for (const [name, html] of [['Huge ranges', hostile], ['Long loops', loops]]) {
    const made = await s.rest('POST', '/templates', { body: { name, html, text: 'x' } });
    expect(made.status).toBe(201);
    await page.goto(`${s.url}/#/templates/${made.body.data.id}`);
    await page.getByRole('heading', { name: `Template: ${name}` }).waitFor();
    // The preview gives up with the engine's reason, and the page still answers.
    await page.getByText(/limit exceeded/i).first().waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor({ timeout: 5_000 });
  }
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

it('edits HTML in a code editor: highlighted, keyboard-usable, previewed live and saved as typed', async () => {
  const w = await watchedPage(browser, { width: 390 });
  const { page } = w;
  await signInWithToken(page, s, ADMIN_TOKEN);
  await page.goto(`${s.url}/#/templates/new`);
  await page.getByLabel('Name', { exact: true }).fill('Code editor');
  const editor = page.getByRole('textbox', { name: 'HTML', exact: true });
  // Typed key by key over the starting text, as a person does.
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  const typed = '<h2 class="hi">Hello {{ name }}</h2>\n<p>Thanks for the order.</p>';
  await page.keyboard.type(typed);
  expect(await editor.innerText()).toBe(typed);

  // Tags and liquid are highlighted, each kind in its own colour.
  const tag = editor.locator('.tok-tag', { hasText: 'h2' }).first();
  const liquid = editor.locator('.tok-brace', { hasText: '{{' });
  const colour = (l: typeof tag) => l.evaluate((el) => getComputedStyle(el).color);
  expect(await colour(tag)).toBe('rgb(17, 99, 41)');
  expect(await colour(liquid)).toBe('rgb(102, 57, 186)');
  expect(await editor.locator('.tok-attr', { hasText: 'class' }).count()).toBe(1);

  // The preview follows the typing, with a sample value.
  await page.getByLabel('Value for name').fill('Ada');
  const preview = page.frameLocator('iframe[title="Template preview"]');
  await preview.getByRole('heading', { name: 'Hello Ada' }).waitFor();
  await preview.getByText('Thanks for the order.').waitFor();

  // Tab indents and Control+Z takes it back; Control+F finds; Escape then Tab leaves for the next field.
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Tab');
  expect(await editor.innerText()).toContain('\n  <p>');
  await page.keyboard.press('Control+z');
  expect(await editor.innerText()).toBe(typed);
  await page.keyboard.press('Control+f');
  await page.getByRole('textbox', { name: 'Find' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'Find' }).waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-labelledby'))).toBe('template-text-label');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  expect(await accessibilityProblems(page)).toEqual([]);

  await page.getByRole('button', { name: 'Create template' }).click();
  await page.getByRole('heading', { name: 'Template: Code editor' }).waitFor();
  const id = new URL(page.url()).hash.replace('#/templates/', '');
  const stored = await s.gql('query($id: ID!) { template(template_id: $id) { name html variables } }', { id });
  expect(stored.body.data.template).toEqual({ name: 'Code editor', html: typed, variables: { name: null } });
  // Opened again, the editor holds the stored HTML.
  await page.reload();
  await editor.getByText('Thanks for the order.').waitFor();
  expect(await editor.innerText()).toBe(typed);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 120_000);

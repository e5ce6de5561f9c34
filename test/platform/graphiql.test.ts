import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * The IDE at GET /graphql, in a real headless Chromium: it must work with no network beyond
 * this service (an air-gapped install), under its own Content-Security-Policy.
 */

const CHROMIUM = '/usr/bin/chromium';
// Without the background-networking flags Chromium calls Google's hosts at start.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const BROWSER_HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let s: TestServer;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the GraphiQL test needs Debian's Chromium. Run .ci/run, or apt-get install -y chromium`);
  }
  s = await startTestServer();
  profile = mkdtempSync(path.join(os.tmpdir(), 'pb-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
});
afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await s?.close();
});

interface Watched {
  page: Page;
  requests: string[];
  problems: string[];
}

/** A new page recording every request it makes, and every page error or CSP report. */
async function watchedPage(): Promise<Watched> {
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (/Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  return { page, requests, problems };
}

/** Every request stayed on the test server (blob: workers and data: images are the page's own). */
function expectOnlyOwnOrigin(requests: string[]) {
  const origin = new URL(s.url).origin;
  const outside = requests.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== origin);
  expect(outside).toEqual([]);
}

/** Replaces a Monaco editor's whole text, as a person would: focus, select all, type. */
async function typeInto(page: Page, editor: string, text: string) {
  await page.locator(editor).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  // insertText, not key by key: Monaco's auto-closing brackets would double the closing ones.
  await page.keyboard.insertText(text);
}

const QUERY_EDITOR = 'section[aria-label="Operation Editor"] .graphiql-editor';
const HEADERS_EDITOR = 'section[aria-label="Headers"] .graphiql-editor:not(.hidden)';
const RESULT = 'section[aria-label="Result Window"]';

async function openIde(w: Watched) {
  const response = await w.page.goto(`${s.url}/graphql`);
  expect(response?.status()).toBe(200);
  const headers = await response!.allHeaders();
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'sha256-[A-Za-z0-9+/=]+'.*connect-src 'self'/);
  await w.page.locator('.graphiql-execute-button').waitFor();
  // The headers editor opens pre-filled with the template to complete.
  await w.page.locator(HEADERS_EDITOR).getByText('"Bearer "').waitFor();
}

describe('GraphiQL at GET /graphql', () => {
  it('runs a query with a bearer token typed into the headers editor, with no request off this origin', async () => {
    const me = await s.gql('{ whoami { account_id } }');
    const accountId: string = me.body.data.whoami.account_id;
    expect(accountId).toBeTruthy();

    const w = await watchedPage();
    await openIde(w);
    await typeInto(w.page, HEADERS_EDITOR, `{ "Authorization": "Bearer ${ADMIN_TOKEN}" }`);
    await typeInto(w.page, QUERY_EDITOR, '{ whoami { account_id } }');
    await w.page.keyboard.press('ControlOrMeta+Enter');

    await w.page.locator(RESULT).getByText(`"${accountId}"`).waitFor({ timeout: 15_000 });
    expect(w.requests.some((url) => url === `${s.url}/graphql` || url.startsWith(`${s.url}/graphql?`))).toBe(true);

    // The schema needs a token too: re-fetched with the header, the docs explorer has it.
    await w.page.getByLabel('Re-fetch GraphQL schema').click();
    await w.page.getByLabel('Show Documentation Explorer').click();
    await w.page.locator('.graphiql-doc-explorer').getByText('Subscription').first().waitFor({ timeout: 10_000 });
    expectOnlyOwnOrigin(w.requests);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });

  it('sends subscriptions to /graphql/stream over SSE', async () => {
    const w = await watchedPage();
    // GraphQL over SSE, distinct connections: a GET with the document in the query string.
    const streamed = w.page.waitForRequest((req) => req.url().startsWith(`${s.url}/graphql/stream?`));
    await openIde(w);
    await typeInto(w.page, HEADERS_EDITOR, `{ "Authorization": "Bearer ${ADMIN_TOKEN}" }`);
    await typeInto(w.page, QUERY_EDITOR, 'subscription { token_events { action token { name } } }');
    await w.page.locator('.graphiql-execute-button').click();
    const request = await streamed;
    expect(request.headers()['accept']).toMatch(/text\/event-stream/);
    expect(request.headers()['authorization']).toBe(`Bearer ${ADMIN_TOKEN}`);

    // The stream is live once connected; a token made now shows up in the result pane.
    const name = 'made-while-watching';
    const result = w.page.locator(RESULT).getByText(`"${name}"`);
    for (let i = 0; i < 20 && !(await result.count()); i++) {
      const made = await s.gql('mutation($n: String!) { create_token(name: $n, scopes: ["email_full"]) { id } }', { n: name });
      expect(made.body.errors).toBeUndefined();
      await result.waitFor({ timeout: 1_000 }).catch(() => undefined);
    }
    await result.waitFor({ timeout: 5_000 });
    expectOnlyOwnOrigin(w.requests);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });
});

describe('everything else on /graphql is still Apollo', () => {
  const get = (accept?: string, extra: Record<string, string> = {}) =>
    fetch(`${s.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(accept ? { accept } : {}), ...extra },
    });

  it.each([undefined, '*/*', 'application/json', 'application/graphql-response+json', 'application/json, text/html', 'text/html;q=0.5, application/json'])(
    'a GET with Accept %s runs the query',
    async (accept) => {
      const res = await get(accept, { 'apollo-require-preflight': 'true' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    },
  );

  it('a POST asking for HTML runs the query', async () => {
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(res.headers.get('content-type')).not.toMatch(/html/);
  });

  it('answers a repeated visit with 304 and an uncompressed page to a client without gzip', async () => {
    const first = await get(BROWSER_HTML_ACCEPT, { 'accept-encoding': 'identity' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBeNull();
    expect(first.headers.get('vary')).toBe('Accept, Accept-Encoding');
    const html = await first.text();
    expect(html).toContain('<title>Postbox GraphiQL</title>');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
    const again = await get(BROWSER_HTML_ACCEPT, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
  });
});

describe('with GRAPHQL_INTROSPECTION=false', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ env: { GRAPHQL_INTROSPECTION: 'false' } });
  });
  afterAll(async () => {
    await closed?.close();
  });

  it('serves no IDE (it could not load the schema) and still runs queries', async () => {
    const page = await fetch(`${closed.url}/graphql`, { headers: { accept: BROWSER_HTML_ACCEPT } });
    expect(page.status).toBe(404);
    expect(await page.json()).toEqual({ message: 'Resource not found.' });
    const me = await closed.gql('{ whoami { account_id } }');
    expect(me.body.data.whoami.account_id).toBeTruthy();
  });
});

import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import axe from 'axe-core';
import type { TestServer } from '../support/server.js';
import { accountIdOf } from '../support/factories.js';
import { ownerClaimLink } from '../../src/modules/users/owner.service.js';

/**
 * Debian's Chromium for the console's journeys (playwright-core never downloads a browser). One
 * browser per test file; each journey gets its own context (cookies), so files run in parallel.
 */
export const CHROMIUM = '/usr/bin/chromium';
// Without the background-networking flags Chromium calls Google's hosts at start.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the console's browser tests need Debian's Chromium. Run .ci/run, or apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** Page errors, CSP refusals, and /graphql answers the console should never get (400, an unknown id). */
  problems: string[];
  /** Operations the page sent to /graphql as text rather than by id (console/src/client.ts sends ids). */
  textOperations: string[];
  /** Resolves once no /graphql request has been in flight for `quietMs`. */
  settled: (quietMs?: number) => Promise<void>;
}

export async function watchedPage(browser: Browser, opts: { width?: number; timezoneId?: string } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, timezoneId: opts.timezoneId });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  const graphql = new Set<object>();
  let lastChange = Date.now();
  const track = (req: { url(): string }, add: boolean) => {
    if (new URL(req.url()).pathname !== '/graphql') return;
    if (add) graphql.add(req);
    else graphql.delete(req);
    lastChange = Date.now();
  };
  page.on('request', (req) => track(req, true));
  page.on('requestfinished', (req) => track(req, false));
  page.on('requestfailed', (req) => track(req, false));
  // A test that changes the server's state under the page (a session deleted) does it between the
  // page's requests, not during one: feedback.test.ts.
  const settled = async (quietMs = 300) => {
    const deadline = Date.now() + 30_000;
    while ((graphql.size || Date.now() - lastChange < quietMs) && Date.now() < deadline) await page.waitForTimeout(50);
  };
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  const textOperations: string[] = [];
  page.on('request', (req) => {
    if (req.method() !== 'POST' || new URL(req.url()).pathname !== '/graphql') return;
    const body = JSON.parse(req.postData() ?? '{}') as { query?: string; operationName?: string };
    if (body.query) textOperations.push(body.operationName ?? body.query.slice(0, 40));
  });
  page.on('response', async (res) => {
    if (res.request().method() !== 'POST' || new URL(res.url()).pathname !== '/graphql') return;
    const text = await res.text().catch(() => '');
    if (res.status() === 400 || text.includes('PERSISTED_QUERY_NOT_FOUND')) problems.push(`graphql ${res.status()}: ${text.slice(0, 200)}`);
  });
  page.on('console', (msg) => {
    if (/Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  return { context, page, requests, problems, textOperations, settled };
}

/** Requests that left the test server (data: and blob: URLs are the page's own). */
export function outsideRequests(s: TestServer, requests: string[]): string[] {
  const origin = new URL(s.url).origin;
  return requests.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:') && !url.startsWith('about:') && new URL(url).origin !== origin);
}

/** Signs in on the console's login page with an API token (the console's second way in). */
export async function signInWithToken(page: Page, s: TestServer, token: string): Promise<void> {
  await page.goto(`${s.url}/`);
  await page.getByText('Use an API token instead').click();
  await page.getByRole('textbox', { name: 'API token' }).fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/** Signs in with email and password, as a person does. */
export async function signIn(page: Page, s: TestServer, email: string, password: string): Promise<void> {
  await page.goto(`${s.url}/`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/**
 * Where a test run keeps its screenshots: docs/ (docs/console.md's pictures) when CONSOLE_SCREENSHOTS=docs,
 * else the git-ignored .data/screenshots, so that `npm test` leaves the working tree clean.
 */
export function screenshotPath(name: string): string {
  // Jest runs from the project root.
  const dir = process.env.CONSOLE_SCREENSHOTS === 'docs' ? 'docs' : path.join('.data', 'screenshots');
  return path.resolve(dir, `console-${name}.png`);
}

/** Decodes quoted-printable soft breaks and escapes, enough to read a link out of a raw message. */
const unqp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The invitation link of a raw message, pointed at the test server (PUBLIC_URL names another host). */
export function inviteLinkIn(s: TestServer, raw: string): string {
  const m = /https?:\/\/[^\s"<>]+\/invites\/accept\?token=[^\s"<>]+/.exec(unqp(raw));
  if (!m) throw new Error('no invitation link in the message');
  const u = new URL(m[0].replace(/&amp;/g, '&'));
  return `${s.url}${u.pathname}${u.search}`;
}

/** Accepts an invitation in the browser, as the invited person does: the form, with a password. */
export async function acceptInvite(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.fill('input[name=name]', 'Dana');
  await page.fill('input[name=last_name]', 'Designer');
  await page.fill('input[name=password]', password);
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/invites/accept');
  await page.getByRole('button', { name: 'Join' }).click();
  const res = await answered;
  if (res.status() !== 200) throw new Error(`invitation not accepted: ${res.status()} ${await res.text()}`);
}

/** Another site for a browser to visit: `localhost` is not the test server's 127.0.0.1. It serves `page`. */
export interface ForeignSite {
  url: string;
  page: string;
  close(): Promise<void>;
}

export async function startForeignSite(): Promise<ForeignSite> {
  const site = { url: '', page: '', close: async () => {} };
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(site.page));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site.url = `http://localhost:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((r) => server.close(() => r()));
  return site;
}

/**
 * axe-core's serious and critical violations on the page as it is now, one line each. Its source
 * goes in through the DevTools protocol (evaluate), which the console's CSP does not govern, so
 * the page keeps its real policy.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, where: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.where.join(', ')}`);
}

/**
 * Publishes on the test DNS server every record a domain page's DNS table asks for, read from the
 * page as a person would copy them; each says it is not found (or not checked) before. Returns the
 * table's rows.
 */
export async function publishDnsRecords(page: Page, s: TestServer): Promise<Locator> {
  const rows = page.locator('table.dns tbody tr');
  await rows.first().waitFor();
  for (const row of await rows.all()) {
    const [label, status, type, host, value] = await row.locator('td').allInnerTexts();
    expect([label, status]).toEqual([label, expect.stringMatching(/^(Not checked|✗ Not found)$/)]);
    const hostname = host.replace(/\s*Copy host$/, '').trim();
    const data = value.replace(/\s*Copy value$/, '').trim();
    if (type === 'TXT') s.dns.add(hostname, { type: 'TXT', data });
    else if (type === 'CNAME') s.dns.add(hostname, { type: 'CNAME', domain: data });
    else if (type === 'MX') s.dns.add(hostname, { type: 'MX', exchange: data, priority: 10 });
    else throw new Error(`unexpected record ${label} ${type}`);
  }
  return rows;
}

/** Claims the test server's account through its first-start owner link, as its owner would. */
export async function claimOwner(page: Page, s: TestServer, owner: { email: string; password: string; name: string; lastName: string }): Promise<void> {
  await page.goto(ownerClaimLink(s.app.services.config, await accountIdOf(s)).replace(s.app.services.config.PUBLIC_URL, s.url));
  await page.fill('input[name=email]', owner.email);
  await page.fill('input[name=name]', owner.name);
  await page.fill('input[name=last_name]', owner.lastName);
  await page.fill('input[name=password]', owner.password);
  await page.getByRole('button', { name: 'Become the owner' }).click();
  await page.getByText('You are now the owner').waitFor();
}

import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { inviteAndAccept } from '../users/helpers.js';
import { accessibilityProblems, launch, signInWithToken, watchedPage } from './browser.js';

/**
 * The service's own mail in the sandbox inbox: invitations, addresses to confirm and notices are
 * kept by the capture transport and would reach no one, so the inbox shows them to the account's
 * people who may act on them, links ready to follow. An invitation only to a caller who holds
 * everything a role can (accepting it would grant more to one who held less); a password reset to
 * no one but its addressee.
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

const LIST = '{ sandbox_mails(limit: 100) { data { id kind to subject } meta { total } } }';
const listed = async (token?: string) => {
  const res = await s.gql(LIST, {}, token);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.sandbox_mails.data as { id: string; kind: string; to: string; subject: string }[];
};

it('shows an invitation and an address to confirm, whose link confirms it, and never a password reset', async () => {
  const domain = await seedDomain(s);
  const invitee = `invitee-${Date.now()}@example.test`;
  expect((await s.rest('POST', '/users', { body: { email: invitee, role: 'manager' } })).status).toBe(200);
  const identity = `sales-${Date.now()}@${domain.name}`;
  const made = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email: identity } });
  expect(made.status).toBe(201);
  // A reset asked for an admin's address: kept by the capture transport, shown to no one.
  const admin = `admin-${Date.now()}@example.test`;
  await inviteAndAccept(s, { email: admin, role: 'admin' });
  expect((await fetch(`${s.url}/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin }) })).status).toBe(202);
  expect((await mailsTo(s, admin, 2)).map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/reset/i)]));
  await mailsTo(s, invitee);
  await mailsTo(s, identity);

  const kinds = (await listed()).map((m) => `${m.kind} ${m.to}`);
  expect(kinds).toEqual(expect.arrayContaining([`invite ${invitee}`, `identity_confirmation ${identity}`]));
  // The admin's invitation is there; the reset is not.
  expect((await listed()).filter((m) => m.to === admin).map((m) => m.kind)).toEqual(['invite']);

  const w = await watchedPage(browser);
  await signInWithToken(w.page, s, ADMIN_TOKEN);
  await w.page.goto(`${s.url}/#/inbox`);
  const table = w.page.getByRole('table', { name: 'Mail from Postbox' });
  await table.getByRole('row').filter({ hasText: invitee }).waitFor();
  expect(await accessibilityProblems(w.page)).toEqual([]);
  await table.getByRole('row').filter({ hasText: identity }).getByRole('link', { name: 'Confirm your sender identity' }).click();
  await w.page.getByRole('heading', { name: 'Confirm your sender identity' }).waitFor();
  expect(await accessibilityProblems(w.page)).toEqual([]);
  const href = await w.page.getByRole('link', { name: /\/confirm\/identity\?token=/ }).getAttribute('href');
  const link = new URL(href!);
  await w.page.goto(`${s.url}${link.pathname}${link.search}`);
  await w.page.getByText(identity).first().waitFor();
  expect((await s.rest('GET', `/identities/${made.body.data.id}`)).body.data.is_verified).toBe(true);
  expect(w.problems).toEqual([]);
  await w.context.close();
}, 60_000);

it('shows each caller only what it may act on: no invitation to one holding less, its domains only, nothing of another account', async () => {
  const mine = await seedDomain(s);
  const theirs = await seedDomain(s);
  const invitee = `admin-invitee-${Date.now()}@example.test`;
  expect((await s.rest('POST', '/users', { body: { email: invitee, role: 'admin' } })).status).toBe(200);
  const here = `here-${Date.now()}@${mine.name}`;
  const there = `there-${Date.now()}@${theirs.name}`;
  for (const [d, email] of [[mine, here], [theirs, there]] as const) {
    expect((await s.rest('POST', '/identities', { body: { domain_id: d.id, email } })).status).toBe(201);
  }
  await Promise.all([mailsTo(s, invitee), mailsTo(s, here), mailsTo(s, there)]);
  const invite = (await listed()).find((m) => m.to === invitee)!;
  expect(invite.kind).toBe('invite');

  // Users' manager, not an admin of everything: accepting an admin's invitation would make it one.
  const usersOnly = await tokenWith(s, ['users_full', 'sender_identity_full']);
  expect((await listed(usersOnly)).map((m) => m.to)).not.toContain(invitee);
  const one = await s.gql('query($id: ID!) { sandbox_mail(mail_id: $id) { text } }', { id: invite.id }, usersOnly);
  expect(one.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  // A token of one domain: that domain's identities only, no invitation.
  const ofMine = await tokenWith(s, ['sender_identity_full'], mine.id);
  const seen = (await listed(ofMine)).map((m) => m.to);
  expect(seen).toContain(here);
  expect(seen).not.toContain(there);
  expect(seen).not.toContain(invitee);
  // A token without a scope for any of it is refused.
  const activityOnly = await tokenWith(s, ['activity_read']);
  expect((await s.gql(LIST, {}, activityOnly)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  // Another account: none of it, listed or asked for.
  const other = await createAccount(s, 'Sandbox mail stranger');
  expect(await listed(other.token)).toEqual([]);
  const stranger = await s.gql('query($id: ID!) { sandbox_mail(mail_id: $id) { text } }', { id: invite.id }, other.token);
  expect(stranger.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});

import { startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf } from '../support/factories.js';
import { ownerClaimLink } from '../../src/modules/users/owner.service.js';
import { inviteLink, uniqueEmail } from '../users/helpers.js';

/**
 * Pages a token link opens (invitation, password reset, owner claim, sender identity and inbound
 * forward confirmations, unsubscribe): the token is in the URL, so the page is never framed by
 * another site, loads nothing, and keeps the URL out of Referer headers and caches.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

function expectLockedDown(path: string, res: Response) {
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives = csp.split(';').map((d) => d.trim());
  expect([path, directives]).toEqual([path, expect.arrayContaining(["frame-ancestors 'none'", "default-src 'none'", "form-action 'self'"])]);
  expect([path, res.headers.get('x-frame-options')]).toEqual([path, 'DENY']);
  expect([path, res.headers.get('referrer-policy')]).toEqual([path, 'no-referrer']);
  expect([path, res.headers.get('cache-control')]).toEqual([path, 'no-store']);
  expect([path, res.headers.get('content-type')]).toEqual([path, expect.stringContaining('text/html')]);
}

it('sends CSP, X-Frame-Options and Referrer-Policy on every token link page, whatever its answer', async () => {
  const email = uniqueEmail('pages');
  expect((await s.rest('POST', '/users', { body: { email, role: 'manager' } })).status).toBe(200);
  const invite = new URL(await inviteLink(s, email));
  const owner = new URL(ownerClaimLink(s.app.services.config, await accountIdOf(s)));
  const pages = [
    `${invite.pathname}${invite.search}`,
    '/invites/accept?token=made.up',
    `${owner.pathname}${owner.search}`,
    '/owner/claim?token=made.up',
    '/auth/reset',
    '/auth/reset?token=made-up',
    '/confirm/identity?token=made.up',
    '/confirm/identity',
    '/confirm/inbound-forward?token=made.up',
    '/t/u/made-up-token',
  ];
  for (const path of pages) {
    const res = await fetch(`${s.url}${path}`);
    expect([path, res.status < 500]).toEqual([path, true]);
    expectLockedDown(path, res);
  }
  // The answers to the forms' posts too.
  const posted = await fetch(`${s.url}/invites/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: 'made.up', name: 'A', last_name: 'B' }).toString(),
  });
  expect(posted.status).toBe(400);
  expectLockedDown('POST /invites/accept', posted);
});

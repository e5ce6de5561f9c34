import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseConfig, ConfigError } from '../../src/config/index.js';
import { seedDomain } from '../support/factories.js';
import { OPERATOR_TOKEN, sameInstallEnv, startTestServer, type TestServer } from '../support/server.js';
import { sql, until } from '../sending/helpers.js';

/**
 * What a new install gets without being told anything: the first account on DEFAULT_PLAN with
 * DEFAULT_VERIFICATION_CREDITS, an owner (ADMIN_EMAIL, or a link to claim the account), the
 * sandbox (capture transport, domains trusted), and rate limits a newcomer's script does not hit.
 */
const NO_TEST_DEFAULTS = { DOMAIN_VERIFICATION: '', DEFAULT_PLAN: '', DEFAULT_VERIFICATION_CREDITS: '', RATE_LIMIT_REQUESTS: '', ACCOUNT_RATE_LIMIT_REQUESTS: '' };

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('a first start with no settings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: NO_TEST_DEFAULTS });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('puts the first account and the operator\'s accounts on the highest plan, with credits', async () => {
    const made = await s.gql('mutation { operator_create_account(name: "Second") { account { plan verification_credits } } }', {}, OPERATOR_TOKEN);
    expect(made.body.data.operator_create_account.account).toEqual({ plan: 'enterprise', verification_credits: 1000 });
    const all = await s.gql('{ operator_accounts { plan verification_credits } }', {}, OPERATOR_TOKEN);
    expect(all.body.data.operator_accounts[0]).toEqual({ plan: 'enterprise', verification_credits: 1000 });
  });

  it('lets a script make two requests a second for a minute on the free plan', async () => {
    await sql(s, `update accounts set plan = 'free'`);
    const statuses = new Set<number>();
    for (let i = 0; i < 120; i++) statuses.add((await s.rest('GET', '/token')).status);
    expect([...statuses]).toEqual([200]);
    expect((await s.rest('GET', '/token')).headers.get('x-ratelimit-limit')).toBe('120');
    await sql(s, `update accounts set plan = 'enterprise'`);
  });

  it('trusts a new domain (verified without DNS) and delivers its mail into the capture transport', async () => {
    // No DNS server knows this name: the sandbox asks none.
    const made = await s.rest('POST', '/domains', { body: { name: 'sandbox-example.org' } });
    expect(made.status).toBe(201);
    expect(made.body.data.is_verified).toBe(true);
    const sent = await s.rest('POST', '/email', { body: { from: { email: 'hi@sandbox-example.org' }, to: [{ email: 'ann@example.net' }], subject: 'Hi', text: 'Hello' } });
    expect(sent.status).toBe(202);
    const inbox = await until(async () => {
      const res = await s.rest('GET', '/captured-emails');
      return res.body.data.length ? res.body : null;
    });
    expect(inbox.data[0]).toMatchObject({ from: 'hi@sandbox-example.org', to: 'ann@example.net', subject: 'Hi' });
    expect(inbox.meta).toMatchObject({ current_page: 1, total: 1 });
    const email = await s.rest('GET', `/email/${inbox.data[0].email_id}`);
    expect(email.body.data.content.text).toContain('Hello');
  });

  it('gives an owner link, which makes one owner and then dies', async () => {
    const link = readFileSync(path.join(s.dataDir, 'owner-link'), 'utf8').trim();
    const url = new URL(link);
    expect(url.pathname).toBe('/owner/claim');
    const at = `${s.url}/owner/claim`;
    const page = await fetch(`${at}${url.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Become the owner of <strong>Default account</strong>');
    const token = url.searchParams.get('token')!;

    const bad = await fetch(at, form({ token, email: 'not an address', name: 'Ann', last_name: 'Lee' }));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('The email must be a valid email address.');
    expect((await fetch(at, form({ token: `${token}x`, email: 'ann@example.net', name: 'Ann', last_name: 'Lee' }))).status).toBe(400);

    // The owner must choose a password: no one else could let them in.
    const nopass = await fetch(at, form({ token, email: 'Ann@Example.net', name: 'Ann', last_name: 'Lee' }));
    expect(nopass.status).toBe(422);
    expect(await nopass.text()).toContain('The password field is required.');
    const ok = await fetch(at, form({ token, email: 'Ann@Example.net', name: 'Ann', last_name: 'Lee', password: 'a strong enough password' }));
    expect(ok.status).toBe(200);
    // The welcome page leads to the console.
    expect(await ok.text()).toContain('<a href="/">Open the console</a> and sign in with your email and the password you chose.');
    const users = await s.rest('GET', '/users');
    expect(users.body.data).toEqual([expect.objectContaining({ email: 'ann@example.net', role: 'admin' })]);
    // Claimed: the link, and a second submit, find an owner already there.
    expect((await fetch(`${at}${url.search}`)).status).toBe(410);
    expect((await fetch(at, form({ token, email: 'eve@example.net', name: 'Eve', last_name: 'X' }))).status).toBe(410);
    expect((await s.rest('GET', '/users')).body.data).toHaveLength(1);
    const [event] = await sql(s, `select action, actor_type from audit_events where action = 'user.owner_claimed'`);
    expect(event).toEqual({ action: 'user.owner_claimed', actor_type: 'invitee' });
  });
});

describe('with ADMIN_EMAIL', () => {
  it('makes that person the owner, and writes no owner link', async () => {
    const s = await startTestServer({ env: { ...NO_TEST_DEFAULTS, ADMIN_EMAIL: 'owner@example.net' } });
    try {
      expect(existsSync(path.join(s.dataDir, 'owner-link'))).toBe(false);
      expect((await s.rest('GET', '/users')).body.data).toEqual([expect.objectContaining({ email: 'owner@example.net', role: 'admin' })]);
    } finally {
      await s.close();
    }
  });
});

describe('leaving the sandbox', () => {
  it('refuses DOMAIN_VERIFICATION=trust with a transport that delivers', () => {
    expect(() => parseConfig({ MAIL_TRANSPORT: 'mx', DOMAIN_VERIFICATION: 'trust' })).toThrow(ConfigError);
    expect(parseConfig({ MAIL_TRANSPORT: 'mx' })).toMatchObject({ DOMAIN_VERIFICATION: 'dns', WEBHOOK_ALLOW_PRIVATE: false });
    expect(parseConfig({})).toMatchObject({ DOMAIN_VERIFICATION: 'trust', WEBHOOK_ALLOW_PRIVATE: true });
    expect(parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' })).toMatchObject({ DOMAIN_VERIFICATION: 'trust', WEBHOOK_ALLOW_PRIVATE: false });
  });

  it('a trusted domain sends nothing through a delivering transport: unverified at start, refused by a worker', async () => {
    // A real SMTP sink as the relay: it must receive nothing from the trusted domain.
    const received: string[] = [];
    const { SMTPServer } = await import('smtp-server');
    const sink = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], onData: (stream, _s, cb) => { stream.on('data', (c) => received.push(String(c))); stream.on('end', () => cb()); } });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
    const relay = `smtp://127.0.0.1:${(sink.server.address() as { port: number }).port}`;
    const s = await startTestServer({ roles: ['api'], env: { ...NO_TEST_DEFAULTS, MAIL_TRANSPORT: 'capture' } });
    try {
      const trusted = (await s.rest('POST', '/domains', { body: { name: 'trusted-example.org' } })).body.data;
      expect(trusted.is_verified).toBe(true);
      // Accepted in the sandbox; then a worker with a delivering transport takes the job.
      expect((await s.rest('POST', '/email', { body: { from: { email: 'a@trusted-example.org' }, to: [{ email: 'x@example.net' }], subject: 's', text: 't' } })).status).toBe(202);
      const { startApp } = await import('../../src/app.js');
      const worker = await startApp({ roles: ['worker'], env: { ...workerEnv(s), MAIL_TRANSPORT: relay } });
      try {
        const [message] = await until(async () => {
          const rows = await sql(s, `select status, status_message from messages where status = 'error'`);
          return rows.length ? rows : null;
        }, 20_000);
        expect(message.status_message).toMatch(/trusted by the sandbox/);
        expect(received).toEqual([]);
        // That worker's start (DOMAIN_VERIFICATION=dns) also took the trust away: DNS must verify it now.
        expect((await s.rest('GET', `/domains/${trusted.id}`)).body.data.is_verified).toBe(false);
        expect((await s.rest('POST', '/email', { body: { from: { email: 'a@trusted-example.org' }, to: [{ email: 'x@example.net' }], subject: 's', text: 't' } })).status).toBe(422);
        // A domain verified through DNS still sends through that worker.
        const real = await seedDomain(s, { dkim: true });
        expect((await s.rest('POST', '/email', { body: { from: { email: `a@${real.name}` }, to: [{ email: 'y@example.net' }], subject: 'real', text: 't' } })).status).toBe(202);
        await until(async () => (received.join('').includes('Subject: real') ? true : null), 20_000);
      } finally {
        await worker.close();
      }
    } finally {
      await s.close();
      await new Promise<void>((r) => sink.close(() => r()));
    }
  }, 90_000);
});

/** A second process of the same install: the test server's settings, with its own data dir and port. */
function workerEnv(s: TestServer): Record<string, string> {
  return sameInstallEnv(s, { DNS_SERVERS: s.dns.server, MX_ALLOW_PRIVATE: 'true' });
}

import { startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf } from '../support/factories.js';
import { ownerClaimLink } from '../../src/modules/users/owner.service.js';
import { uniqueEmail } from '../users/helpers.js';
import { loginOk, password, send, userWith } from './helpers.js';

/**
 * Logins and the other checks of a password, a code or a link's token are limited per address,
 * per client and over the whole process, and the scrypt behind them is capped. Clients are told
 * apart by X-Forwarded-For (TRUST_PROXY=true), as behind a proxy.
 */

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const loginFrom = (s: TestServer, ip: string, email: string, pw: string) =>
  send(s, 'POST', '/auth/login', { headers: from(ip), body: { email, password: pw } });
const form = (s: TestServer, path: string, ip: string, fields: Record<string, string>) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(ip) },
    body: new URLSearchParams(fields).toString(),
  });

describe('with the default limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('throttles one client spraying 30 addresses before the 30th, with Retry-After', async () => {
    const statuses: number[] = [];
    let throttled: Awaited<ReturnType<typeof loginFrom>> | null = null;
    for (let i = 0; i < 30; i++) {
      const res = await loginFrom(s, '198.51.100.7', uniqueEmail(`spray${i}`), 'a guessed password');
      statuses.push(res.status);
      if (res.status === 429) throttled ??= res;
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    expect(Number(throttled!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled!.body).toEqual({ message: 'Too many failed logins; try again later.' });
    // Another client is not held by this one's failures.
    const u = await userWith(s, { role: 'manager' });
    expect((await loginFrom(s, '198.51.100.8', u.email, u.password)).status).toBe(200);
  }, 120_000);

  it('counts attempts in flight: 15 at once at one address pass its limit of 10 not once', async () => {
    const email = uniqueEmail('inflight');
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => loginFrom(s, `10.77.${i}.1`, email, `guess-${i}-password`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
  }, 120_000);

  it('counts an IPv6 client by its /64', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await loginFrom(s, `2001:db8:7:7::${(i + 1).toString(16)}`, uniqueEmail('v6'), 'a guessed password')).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
  }, 120_000);

  it('limits wrong current passwords and wrong 2FA codes of a session per address', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);
    const change = (current: string) =>
      send(s, 'POST', '/auth/password', { session, headers: from('203.0.113.5'), body: { current_password: current, new_password: password() } });
    for (let i = 0; i < 5; i++) expect((await change(`wrong-${i}-password`)).status).toBe(422);
    expect((await send(s, 'POST', '/auth/totp/enroll', { session })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await send(s, 'POST', '/auth/totp/confirm', { session, headers: from('203.0.113.5'), body: { code: '000000' } })).status).toBe(422);
    }
    const refused = await change(u.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // So is a login to the same address, from anywhere.
    expect((await loginFrom(s, '203.0.113.99', u.email, u.password)).status).toBe(429);
  }, 120_000);

  it('limits made-up reset, invitation and owner links per client (form pages answer 429 too)', async () => {
    const ip = '192.0.2.44';
    const owner = new URL(ownerClaimLink(s.app.services.config, await accountIdOf(s))).searchParams.get('token')!;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await form(s, '/auth/reset', ip, { token: `made-up-${i}`, password: password() })).status);
      statuses.push((await form(s, '/invites/accept', ip, { token: `made.up${i}`, name: 'A', last_name: 'B' })).status);
      statuses.push((await form(s, '/owner/claim', ip, { token: `${owner.split('.')[0]}.forged${i}`, email: 'o@example.test', name: 'O', last_name: 'W' })).status);
    }
    expect(statuses.slice(0, 20)).toEqual(expect.arrayContaining([410, 400]));
    expect(statuses.slice(0, 20).every((st) => st === 410 || st === 400)).toBe(true);
    const refused = await form(s, '/auth/reset', ip, { token: 'made-up-last', password: password() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toContain('text/html');
  }, 120_000);

  it('limits reset mail requests per client (past the address limit, still the same 202)', async () => {
    const ip = '192.0.2.77';
    const ask = (email: string) => send(s, 'POST', '/auth/password-reset', { headers: from(ip), body: { email } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await ask(uniqueEmail(`reset${i}`))).status);
    expect(statuses).toEqual(Array(20).fill(202));
    const refused = await ask(uniqueEmail('reset-more'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

describe('a counter table full of fresh keys', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { TRUST_PROXY: 'true', LOGIN_TRACKED_KEYS: '10', LOGIN_MAX_FAILURES_PER_ADDRESS: '3', LOGIN_MAX_FAILURES_PER_CLIENT: '100' },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("keeps a victim's counter: a victim's counter survives a flood, new keys are refused instead", async () => {
    const victim = await userWith(s, { role: 'manager' });
    const attacker = '198.51.100.66';
    for (let i = 0; i < 2; i++) expect((await loginFrom(s, attacker, victim.email, `guess-${i}-password`)).status).toBe(401);
    // A flood of fresh addresses from fresh clients: more keys than the tables hold.
    const flood: number[] = [];
    for (let i = 0; i < 25; i++) flood.push((await loginFrom(s, `10.9.0.${i + 1}`, uniqueEmail(`flood${i}`), 'whatever-password')).status);
    expect(flood.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(flood.slice(-5)).toEqual(Array(5).fill(429));
    // The victim's two failures are still counted: the third locks the address, the right password then too.
    expect((await loginFrom(s, attacker, victim.email, 'guess-2-password')).status).toBe(401);
    const locked = await loginFrom(s, attacker, victim.email, victim.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

describe('the global budget of failed logins', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES_GLOBAL: '12' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('stops many clients each trying a few addresses', async () => {
    const u = await userWith(s, { role: 'manager' });
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await loginFrom(s, `172.16.${i}.1`, uniqueEmail(`bot${i}`), 'a guessed password')).status);
    expect(statuses.slice(0, 12)).toEqual(Array(12).fill(401));
    expect(statuses.slice(12)).toEqual(Array(4).fill(429));
    // While it lasts, no password is tried at all: a right guess would tell the botnet it was right.
    expect((await loginFrom(s, '172.31.0.1', u.email, u.password)).status).toBe(429);
  }, 120_000);
});

describe('the hashing cap', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { TRUST_PROXY: 'true', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses concurrent logins beyond the cap and its queue with 503 and Retry-After, then logs in', async () => {
    const u = await userWith(s, { role: 'manager' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom(s, `10.20.${i}.1`, uniqueEmail(`burst${i}`), 'a guessed password')),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((st) => st === 401 || st === 503)).toBe(true);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(statuses.filter((st) => st === 401).length).toBeGreaterThanOrEqual(2);
    expect(busy[0].headers.get('retry-after')).toBe('1');
    expect(busy[0].body.message).toMatch(/try again/);
    // A refused login was not counted as a failure, and the cap hands its slots on.
    expect((await loginFrom(s, '10.20.0.1', u.email, u.password)).status).toBe(200);
  }, 120_000);
});

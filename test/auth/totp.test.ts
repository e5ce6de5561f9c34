import { Secret, TOTP } from 'otpauth';
import { startTestServer, type TestServer } from '../support/server.js';
import { login, loginOk, send, userWith } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const codeOf = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

describe('two-factor login (TOTP) and recovery codes', () => {
  it('enrols, then asks for a code at login; a recovery code works once', async () => {
    const u = await userWith(s, { role: 'manager' });
    const session = await loginOk(s, u.email, u.password);

    const enrol = await send(s, 'POST', '/auth/totp/enroll', { session });
    expect(enrol.status).toBe(200);
    expect(enrol.body.secret).toMatch(/^[A-Z2-7]+$/);
    expect(enrol.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Postbox:.*secret=/);
    // Not on until a code confirms it: login still needs the password only.
    expect((await login(s, { email: u.email, password: u.password })).res.status).toBe(200);

    expect((await send(s, 'POST', '/auth/totp/confirm', { session, body: { code: '000000' } })).status).toBe(422);
    const confirmed = await send(s, 'POST', '/auth/totp/confirm', { session, body: { code: codeOf(enrol.body.secret) } });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const listed = await s.rest('GET', `/users/${u.id}`);
    expect(listed.body.data['2fa']).toBe(true);

    const bare = await login(s, { email: u.email, password: u.password });
    expect(bare.res.status).toBe(401);
    expect(bare.res.body.totp_required).toBe(true);
    expect(bare.session).toBeNull();
    const wrongCode = await login(s, { email: u.email, password: u.password, totp: '000000' });
    expect(wrongCode.res.status).toBe(401);
    // A wrong password never says a code is needed.
    const wrongPw = await login(s, { email: u.email, password: 'not-the-password', totp: codeOf(enrol.body.secret) });
    expect(wrongPw.res.status).toBe(401);
    expect(wrongPw.res.body.totp_required).toBeUndefined();

    const code = codeOf(enrol.body.secret);
    const withCode = await login(s, { email: u.email, password: u.password, totp: code });
    expect(withCode.res.status).toBe(200);
    // A code logs in once: replayed, it is refused; the next step's code (clock drift allows one) works.
    const replayed = await login(s, { email: u.email, password: u.password, totp: code });
    expect(replayed.res.status).toBe(401);
    expect(replayed.res.body.totp_required).toBe(true);
    expect((await login(s, { email: u.email, password: u.password, totp: codeOf(enrol.body.secret, 1) })).res.status).toBe(200);

    const recovered = await login(s, { email: u.email, password: u.password, recovery_code: codes[0].toUpperCase() });
    expect(recovered.res.status).toBe(200);
    const again = await login(s, { email: u.email, password: u.password, recovery_code: codes[0] });
    expect(again.res.status).toBe(401);
    expect(again.res.body.totp_required).toBe(true);

    // Turning it off takes a code too.
    const s2 = withCode.session!;
    expect((await send(s, 'POST', '/auth/totp/disable', { session: s2, body: { code: '000000' } })).status).toBe(422);
    expect((await send(s, 'POST', '/auth/totp/disable', { session: s2, body: { code: codeOf(enrol.body.secret) } })).status).toBe(204);
    expect((await login(s, { email: u.email, password: u.password })).res.status).toBe(200);
  });
});

describe('turning two-factor authentication on', () => {
  it("ends the user's other sessions and keeps the one that turned it on", async () => {
    const u = await userWith(s, { role: 'manager' });
    const here = await loginOk(s, u.email, u.password);
    const elsewhere = await loginOk(s, u.email, u.password);
    const other = await userWith(s, { role: 'manager' });
    const otherUser = await loginOk(s, other.email, other.password);
    expect((await send(s, 'GET', '/v1/domains', { session: elsewhere })).status).toBe(200);

    const enrol = await send(s, 'POST', '/auth/totp/enroll', { session: here });
    // Enrolling alone (not yet on) ends nothing.
    expect((await send(s, 'GET', '/v1/domains', { session: elsewhere })).status).toBe(200);
    expect((await send(s, 'POST', '/auth/totp/confirm', { session: here, body: { code: codeOf(enrol.body.secret) } })).status).toBe(200);

    expect((await send(s, 'GET', '/auth/session', { session: elsewhere })).status).toBe(401);
    expect((await send(s, 'GET', '/v1/domains', { session: elsewhere })).status).toBe(401);
    expect((await send(s, 'GET', '/auth/session', { session: here })).status).toBe(200);
    expect((await send(s, 'GET', '/v1/domains', { session: here })).status).toBe(200);
    // Another user's session is not theirs to end.
    expect((await send(s, 'GET', '/auth/session', { session: otherUser })).status).toBe(200);
  });
});

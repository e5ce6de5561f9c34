import { createAccount, tokenWith, type TestServer } from '../support/server.js';
import { addCredits, CHECK_BUDGET_MS, credits, mailDomain, startVerificationServer, type ProbeSink } from './setup.js';

let s: TestServer;
let sink: ProbeSink;
beforeAll(async () => {
  ({ s, sink } = await startVerificationServer());
  await addCredits(s, 1000);
  mailDomain(s, 'strict-mx.test');
  sink.mailbox('jane@strict-mx.test');
  sink.refuse('gone@strict-mx.test', 550);
  sink.refuse('moved@strict-mx.test', 551);
  sink.refuse('bad@strict-mx.test', 553);
  sink.refuse('stuffed@strict-mx.test', 552);
  sink.refuse('overflow@strict-mx.test', 450, '4.2.2 Mailbox is full, try again later');
  sink.refuse('shunned@strict-mx.test', 554);
  sink.refuse('listed@strict-mx.test', 550, '5.7.1 Message rejected by policy: sender on a blocklist');
  sink.refuse('later@strict-mx.test', 451);
  sink.stall('slow@strict-mx.test');
  mailDomain(s, 'anything-goes.test');
  sink.catchAll('anything-goes.test');
  // No MX: the A record is the implicit MX (RFC 5321).
  mailDomain(s, 'a-only.test', { mx: false });
  sink.mailbox('ann@a-only.test');
  // Nothing listens on 127.0.0.2: connection refused.
  mailDomain(s, 'dead-mx.test', { address: '127.0.0.2' });
  // The domain exists but has neither MX nor A.
  s.dns.addName('no-mail.test');
});
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const verify = (email: unknown, token?: string) => s.rest('POST', '/email-verification/verify', { body: { email }, token });

describe('POST /v1/email-verification/verify', () => {
  it.each([
    ['jane@strict-mx.test', 'valid'],
    ['ann@a-only.test', 'valid'],
    ['whoever@anything-goes.test', 'catch_all'],
    ['gone@strict-mx.test', 'mailbox_not_found'],
    ['moved@strict-mx.test', 'mailbox_not_found'],
    ['bad@strict-mx.test', 'mailbox_not_found'],
    ['nobody@no-mail.test', 'mailbox_not_found'],
    ['nobody@unregistered-domain.test', 'mailbox_not_found'],
    ['stuffed@strict-mx.test', 'mailbox_full'],
    ['overflow@strict-mx.test', 'mailbox_full'],
    ['shunned@strict-mx.test', 'mailbox_blocked'],
    ['listed@strict-mx.test', 'mailbox_blocked'],
    ['later@strict-mx.test', 'unknown'],
    ['slow@strict-mx.test', 'failed'],
    ['x@dead-mx.test', 'failed'],
    ['info@strict-mx.test', 'role_based'],
    ['No-Reply+news@strict-mx.test', 'role_based'],
    ['someone@mailinator.com', 'disposable'],
    ['someone@gmial.com', 'typo'],
    ['someone@gmail.con', 'typo'],
    ['plainaddress', 'syntax_error'],
    ['two@@strict-mx.test', 'syntax_error'],
    ['dot..dot@strict-mx.test', 'syntax_error'],
    ['x@-bad-.test', 'syntax_error'],
    ['x@nodot', 'syntax_error'],
    [`${'a'.repeat(65)}@strict-mx.test`, 'syntax_error'],
  ])('%s → %s', async (email, status) => {
    const res = await verify(email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status });
  });

  it('probes with the configured HELO name and MAIL FROM, tests a random address, and never sends DATA', async () => {
    const before = sink.sessions.length;
    expect((await verify('jane@strict-mx.test')).body).toEqual({ status: 'valid' });
    const session = sink.sessions.slice(before).find((x) => x.rcpt.includes('jane@strict-mx.test'))!;
    expect(session.helo).toBe('probe.postbox.test');
    expect(session.from).toBe('verify@postbox.test');
    expect(session.rcpt).toHaveLength(2);
    expect(session.rcpt[1]).toMatch(/^[0-9a-f]{18}@strict-mx\.test$/);
    expect(sink.dataCommands).toBe(0);
  });

  it('answers a stalled server within the time budget', async () => {
    const started = Date.now();
    expect((await verify('slow@strict-mx.test')).body).toEqual({ status: 'failed' });
    expect(Date.now() - started).toBeLessThan(CHECK_BUDGET_MS + 2000);
  });

  it('takes one credit per result, none for failed', async () => {
    const start = await credits(s);
    await verify('jane@strict-mx.test');
    await verify('plainaddress');
    expect(await credits(s)).toBe(start - 2);
    await verify('x@dead-mx.test');
    expect(await credits(s)).toBe(start - 2);
  });

  it('answers 402 naming the credits required, without probing', async () => {
    const other = await createAccount(s, 'No credits');
    const before = sink.sessions.length;
    const res = await verify('jane@strict-mx.test', other.token);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ message: 'This request needs 1 verification credit; the account has 0.' });
    expect(sink.sessions.length).toBe(before);

    await addCredits(s, 1, other.token);
    expect((await verify('jane@strict-mx.test', other.token)).body).toEqual({ status: 'valid' });
    expect(await credits(s, other.token)).toBe(0);
    expect((await verify('jane@strict-mx.test', other.token)).status).toBe(402);
  });

  it.each([
    [{}, 'The email field is required.'],
    [{ email: 'x'.repeat(310) + '@example.test' }, 'The email may not be greater than 320 characters.'],
    [{ email: 42 }, 'The email must be a string.'],
  ])('422 for %j', async (body, message) => {
    const res = await s.rest('POST', '/email-verification/verify', { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { email: [message] } });
  });

  it('401 without a token, 403 without the full scope', async () => {
    expect((await s.rest('POST', '/email-verification/verify', { body: { email: 'a@b.test' }, token: null })).body).toEqual({ message: 'Unauthenticated.' });
    const read = await tokenWith(s, ['email_verification_read']);
    const res = await verify('jane@strict-mx.test', read);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it('works through GraphQL, with the same 402', async () => {
    const q = 'mutation($email: String!) { verify_email(email: $email) { status } }';
    const ok = await s.gql(q, { email: 'whoever@anything-goes.test' });
    expect(ok.body).toEqual({ data: { verify_email: { status: 'catch_all' } } });
    const broke = await createAccount(s, 'GraphQL no credits');
    const res = await s.gql(q, { email: 'jane@strict-mx.test' }, broke.token);
    expect(res.body.errors[0].message).toBe('This request needs 1 verification credit; the account has 0.');
    expect(res.body.errors[0].extensions.code).toBe('PAYMENT_REQUIRED');
  });
});


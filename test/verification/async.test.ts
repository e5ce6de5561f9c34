import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, tokenWith, type TestServer } from '../support/server.js';
import { addCredits, credits, mailDomain, sql, startVerificationServer, type ProbeSink } from './setup.js';

let s: TestServer;
let sink: ProbeSink;
let receiver: Receiver;
/** email_single.verified, as webhooks of two of the account's domains get it (an event of the account, of no domain, reaches both). */
let taps: EventTap[];
beforeAll(async () => {
  // Small per-host limits, so the rate-limit tests can reach them (each scenario has its own MX host).
  ({ s, sink } = await startVerificationServer({ VERIFY_HOST_PER_MINUTE: '3', VERIFY_HOST_CONCURRENCY: '1', WEBHOOK_ALLOW_PRIVATE: 'true' }));
  receiver = await startReceiver();
  taps = [];
  for (let i = 0; i < 2; i++) taps.push(await tapEvents(s, receiver, { domainId: (await seedDomain(s)).id }, { types: ['email_single.verified'] }));
  await addCredits(s, 100);
  mailDomain(s, 'async-ok.test');
  sink.mailbox('jane@async-ok.test');
  mailDomain(s, 'async-slow.test');
  sink.stall('slow@async-slow.test');
  sink.stall('first@async-slow.test');
  sink.mailbox('second@async-slow.test');
  mailDomain(s, 'gql-ok.test');
  sink.mailbox('jane@gql-ok.test');
  mailDomain(s, 'busy.test');
  sink.mailbox('a@busy.test');
});
afterAll(async () => {
  await s?.close();
  await sink?.close();
  await receiver?.close();
});

/** The email_single.verified bodies' data each tap got, once every event written so far is delivered. */
async function verifiedEvents(): Promise<any[][]> {
  await taps[0].settle();
  return taps.map((tap) => tap.bodies().filter((e) => e.type === 'email_single.verified').map((e) => e.data));
}

const KEYS = ['address', 'error', 'id', 'result', 'status'];
const start = (email: unknown, token?: string) => s.rest('POST', '/email-verification/verify-async', { body: { email }, token });
const get = (id: string, token?: string) => s.rest('GET', `/email-verification/verify-async/${id}`, { token });

async function settled(id: string, token?: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await get(id, token);
    if (res.body.status !== 'queued') return res;
    if (Date.now() > deadline) throw new Error(`verification ${id} still queued`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('verify-async', () => {
  it('queues, takes a credit, completes in a job and records email_single.verified', async () => {
    const before = await credits(s);
    const res = await start('jane@async-ok.test');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(KEYS);
    expect(res.body).toEqual({ id: expect.any(String), address: 'jane@async-ok.test', status: 'queued', result: null, error: null });
    expect(await credits(s)).toBe(before - 1);

    const done = await settled(res.body.id);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ id: res.body.id, address: 'jane@async-ok.test', status: 'completed', result: 'valid', error: null });
    expect(await credits(s)).toBe(before - 1);

    for (const got of await verifiedEvents()) {
      const mine = got.filter((data) => data.id === res.body.id);
      expect(mine).toEqual([done.body]);
    }
  });

  it('a check that times out ends failed, with the reason, and the credit is refunded', async () => {
    const before = await credits(s);
    const res = await start('slow@async-slow.test');
    expect(await credits(s)).toBe(before - 1);
    const done = await settled(res.body.id);
    expect(done.body).toMatchObject({ status: 'failed', result: 'failed', error: expect.stringMatching(/did not answer in time/) });
    expect(await credits(s)).toBe(before);
    for (const got of await verifiedEvents()) expect(got).toContainEqual(done.body);
  });

  it('results decided without the network complete too', async () => {
    const res = await start('not-an-address');
    expect((await settled(res.body.id)).body).toMatchObject({ status: 'completed', result: 'syntax_error', error: null });
  });

  it('402 without credits, and nothing is queued', async () => {
    const other = await createAccount(s, 'Async no credits');
    const res = await start('jane@async-ok.test', other.token);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ message: 'This request needs 1 verification credit; the account has 0.' });
    const rows = await sql(s, 'select id from email_verifications where account_id = $1', [other.id]);
    expect(rows).toHaveLength(0);
  });

  it('422 on the body', async () => {
    for (const [body, message] of [
      [{}, 'The email field is required.'],
      [{ email: `${'x'.repeat(321)}` }, 'The email may not be greater than 320 characters.'],
    ] as const) {
      const res = await s.rest('POST', '/email-verification/verify-async', { body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { email: [message] } });
    }
  });

  it('404 for unknown ids, another account\'s ids, and single (synchronous) checks', async () => {
    expect((await get('nope')).body).toEqual({ message: 'Resource not found.' });
    expect((await get('nope')).status).toBe(404);
    const mine = await start('x@mailinator.com');
    const other = await createAccount(s, 'Async other');
    const res = await get(mine.body.id, other.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
    await s.rest('POST', '/email-verification/verify', { body: { email: 'x@mailinator.com' } });
    const [sync] = await sql(s, "select id from email_verifications where kind = 'sync' limit 1");
    expect((await get(sync.id)).status).toBe(404);
  });

  it('401, and 403 per scope: read may GET, only full may start', async () => {
    const mine = await start('x@mailinator.com');
    expect((await get(mine.body.id, null as never)).status).toBe(401);
    const read = await tokenWith(s, ['email_verification_read']);
    expect((await get(mine.body.id, read)).status).toBe(200);
    expect((await start('x@mailinator.com', read)).status).toBe(403);
    const none = await tokenWith(s, ['email_full']);
    expect((await get(mine.body.id, none)).status).toBe(403);
    const full = await tokenWith(s, ['email_verification_full']);
    expect((await get(mine.body.id, full)).status).toBe(200);
    // Verification belongs to the account, not to a domain: out of a domain-limited token's reach.
    const domain = await seedDomain(s);
    const limited = await tokenWith(s, ['email_verification_full'], domain.id);
    expect((await get(mine.body.id, limited)).body).toEqual({ message: 'This token is limited to one domain; this action needs a token for the whole account.' });
  });

  it('works through GraphQL', async () => {
    const started = await s.gql('mutation($e: String!) { verify_email_async(email: $e) { id address status result error } }', { e: 'jane@gql-ok.test' });
    const v = started.body.data.verify_email_async;
    expect(v).toEqual({ id: expect.any(String), address: 'jane@gql-ok.test', status: 'queued', result: null, error: null });
    await settled(v.id);
    const q = 'query($id: ID!) { async_email_verification(email_verification_id: $id) { id status result error } }';
    const read = await s.gql(q, { id: v.id });
    expect(read.body.data.async_email_verification).toEqual({ id: v.id, status: 'completed', result: 'valid', error: null });
    const other = await createAccount(s, 'GraphQL other');
    const hidden = await s.gql(q, { id: v.id }, other.token);
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('per-MX-host rate limits', () => {
  const verify = (email: string) => s.rest('POST', '/email-verification/verify', { body: { email } });

  it('starts at most VERIFY_HOST_PER_MINUTE probes of a host per minute', async () => {
    for (let i = 0; i < 3; i++) expect((await verify('a@busy.test')).body).toEqual({ status: 'valid' });
    const before = sink.sessions.length;
    expect((await verify('a@busy.test')).body).toEqual({ status: 'failed' });
    expect(sink.sessions.length).toBe(before);
  });

  it('keeps at most VERIFY_HOST_CONCURRENCY probes of a host open', async () => {
    const first = verify('first@async-slow.test');
    await new Promise((r) => setTimeout(r, 100));
    const second = await verify('second@async-slow.test');
    expect(second.body).toEqual({ status: 'failed' });
    expect((await first).body).toEqual({ status: 'failed' });
    expect(sink.sessions.some((x) => x.rcpt.includes('second@async-slow.test'))).toBe(false);
  });
});

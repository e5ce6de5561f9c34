import { EmailVerification } from 'mailersend';
import { addCredits, credits, mailDomain, startVerificationServer, type ProbeSink } from '../verification/setup.js';
import type { TestServer } from '../support/server.js';
import { sdkFor } from './sdk.js';

/** The mailersend SDK's emailVerification module against the server: single, async and lists. */
let s: TestServer;
let sink: ProbeSink;
beforeAll(async () => {
  ({ s, sink } = await startVerificationServer());
  mailDomain(s, 'sdk-mail.test');
  sink.mailbox('real@sdk-mail.test');
  await addCredits(s, 20);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

async function waitFor<T>(probe: () => Promise<T | null>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 150));
  }
}

it('verifyEmail answers the result at once and takes a credit', async () => {
  const ms = sdkFor(s);
  const before = await credits(s);
  const res = await ms.emailVerification.verifyEmail('real@sdk-mail.test');
  expect(res.statusCode).toBe(200);
  expect(res.body).toEqual({ status: 'valid' });
  expect((await ms.emailVerification.verifyEmail('nobody@sdk-mail.test')).body).toEqual({ status: 'mailbox_not_found' });
  expect(await credits(s)).toBe(before - 2);
});

it('verifyEmailAsync queues, and getVerifyEmailAsyncStatus reads the outcome', async () => {
  const ms = sdkFor(s);
  const queued = await ms.emailVerification.verifyEmailAsync('real@sdk-mail.test');
  expect(queued.body).toMatchObject({ address: 'real@sdk-mail.test', status: 'queued', result: null, error: null });
  const done = await waitFor(async () => {
    const r = await ms.emailVerification.getVerifyEmailAsyncStatus(queued.body.id);
    return r.body.status === 'queued' ? null : r;
  });
  expect(done.body).toMatchObject({ id: queued.body.id, status: 'completed', result: 'valid', error: null });
});

it('creates a list, verifies it, and reads its results', async () => {
  const ms = sdkFor(s);
  const created = await ms.emailVerification.create(new EmailVerification('SDK list', ['real@sdk-mail.test', 'nobody@sdk-mail.test', 'not-an-email']));
  expect(created.statusCode).toBe(201);
  const id = created.body.data.id;
  expect(created.body.data.status.name).toBe('created');
  expect((await ms.emailVerification.verifyList(id)).statusCode).toBe(202);
  const list = await waitFor(async () => {
    const r = await ms.emailVerification.single(id);
    return r.body.data.status.name === 'verified' ? r : null;
  });
  expect(list.body.data.statistics).toMatchObject({ valid: 1, mailbox_not_found: 1, syntax_error: 1 });
  const results = await ms.emailVerification.getListResult(id, { page: 1, limit: 10 });
  expect(results.body.data.map((r: { address: string; result: string }) => [r.address, r.result])).toEqual([
    ['real@sdk-mail.test', 'valid'],
    ['nobody@sdk-mail.test', 'mailbox_not_found'],
    ['not-an-email', 'syntax_error'],
  ]);
  const lists = await ms.emailVerification.list({ page: 1, limit: 10 });
  expect(lists.body.data.map((l: { id: string }) => l.id)).toContain(id);
});

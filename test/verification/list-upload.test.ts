import { createAccount } from '../support/server.js';
import { sdkFor } from '../sdk/sdk.js';
import type { TestServer } from '../support/server.js';
import { addCredits, credits, mailDomain, startVerificationServer, type ProbeSink } from './setup.js';

let s: TestServer;
let sink: ProbeSink;
beforeAll(async () => {
  ({ s, sink } = await startVerificationServer());
  // Both MX hosts of dead.test are where nothing listens: every probe fails to connect.
  mailDomain(s, 'dead.test', { address: '127.0.0.2' });
});
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const get = (id: string) => s.rest('GET', `/email-verification/${id}`);
const start = (id: string) => s.rest('GET', `/email-verification/${id}/verify`);
const results = (id: string, query = '') => s.rest('GET', `/email-verification/${id}/results${query}`);
const bad = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `not-an-address-${from + i}`);

async function settled(id: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await get(id);
    if (res.body.data.status.name !== 'verifying') return res.body.data;
    if (Date.now() > deadline) throw new Error(`list ${id} still verifying`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('a list uploaded in chunks', () => {
  it('is uploading until finished, keeps the upload order across chunks and both surfaces, then verifies', async () => {
    const created = await s.rest('POST', '/email-verification', { body: { name: 'Big', emails: bad(2), uploading: true } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Big', total: 2, status: { name: 'uploading', count: 0 } });
    const id = created.body.data.id;

    const more = await s.rest('POST', `/email-verification/${id}/emails`, { body: { emails: bad(3, 2) } });
    expect(more.status).toBe(200);
    expect(more.body.data).toMatchObject({ id, total: 5, status: { name: 'uploading' } });
    const gql = await s.gql(
      'mutation($id: ID!, $e: [String!]!) { add_email_verification_list_emails(email_verification_id: $id, emails: $e) { total status { name } } }',
      { id, e: bad(1, 5) },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.add_email_verification_list_emails).toEqual({ total: 6, status: { name: 'uploading' } });

    // Not startable while uploading; nothing is reserved.
    await addCredits(s, 100);
    expect((await start(id)).status).toBe(422);
    expect(await credits(s)).toBe(100);

    const done = await s.rest('PUT', `/email-verification/${id}/finish`);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ total: 6, status: { name: 'created' } });
    // A finished upload takes no more addresses and cannot be finished twice.
    const late = await s.rest('POST', `/email-verification/${id}/emails`, { body: { emails: ['x@y.test'] } });
    expect(late.status).toBe(422);
    expect(Object.keys(late.body.errors)).toEqual(['email_verification_id']);
    expect((await s.rest('PUT', `/email-verification/${id}/finish`)).status).toBe(422);

    expect((await start(id)).status).toBe(202);
    const list = await settled(id);
    expect(list).toMatchObject({ status: { name: 'verified', count: 6 }, total: 6 });
    expect((await results(id)).body.data).toEqual(bad(6).map((address) => ({ address, result: 'syntax_error' })));
  });

  it('GraphQL creates uploading and finishes; 422 on an empty chunk; 404 for another account', async () => {
    const res = await s.gql(
      'mutation { create_email_verification_list(name: "G", emails: ["a@b.test"], uploading: true) { id status { name } } }',
    );
    expect(res.body.data.create_email_verification_list.status.name).toBe('uploading');
    const id = res.body.data.create_email_verification_list.id;
    const empty = await s.rest('POST', `/email-verification/${id}/emails`, { body: { emails: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ emails: ['The emails field is required.'] });
    const other = await createAccount(s, 'Upload other');
    expect((await s.rest('POST', `/email-verification/${id}/emails`, { body: { emails: ['c@d.test'] }, token: other.token })).status).toBe(404);
    expect((await s.rest('PUT', `/email-verification/${id}/finish`, { token: other.token })).status).toBe(404);
    const fin = await s.gql('mutation($id: ID!) { finish_email_verification_list_upload(email_verification_id: $id) { total status { name } } }', { id });
    expect(fin.body.data.finish_email_verification_list_upload).toEqual({ total: 1, status: { name: 'created' } });
    // An uploading list can also be canceled.
    const again = await s.rest('POST', '/email-verification', { body: { name: 'C', emails: ['a@b.test'], uploading: true } });
    expect((await s.rest('PUT', `/email-verification/${again.body.data.id}/cancel`)).body.data.status.name).toBe('canceled');
  });
});

describe('a list whose checks all failed', () => {
  it('ends failed, costs nothing; a list with some other result still ends verified', async () => {
    const before = await credits(s);
    await addCredits(s, 10);
    const dead = await s.rest('POST', '/email-verification', { body: { name: 'Dead', emails: ['a@dead.test', 'b@dead.test'] } });
    expect((await start(dead.body.data.id)).status).toBe(202);
    const list = await settled(dead.body.data.id);
    expect(list.status).toEqual({ name: 'failed', count: 2 });
    expect(list.statistics.failed).toBe(2);
    expect(list.verification_ended).not.toBeNull();
    expect(await credits(s)).toBe(before + 10);

    const mixed = await s.rest('POST', '/email-verification', { body: { name: 'Mixed', emails: ['c@dead.test', ...bad(1)] } });
    await start(mixed.body.data.id);
    expect((await settled(mixed.body.data.id)).status.name).toBe('verified');
  });
});

describe('GET /v1/email-verification/{id}/results', () => {
  it('filters by result[] (the values of SPEC.md\'s results table); an unknown value is a 422', async () => {
    await addCredits(s, 10);
    const created = await s.rest('POST', '/email-verification', { body: { name: 'Filter', emails: ['d@dead.test', ...bad(2), 'e@dead.test'] } });
    const id = created.body.data.id;
    await start(id);
    await settled(id);
    expect((await results(id, '?result[]=failed')).body.data).toEqual([
      { address: 'd@dead.test', result: 'failed' },
      { address: 'e@dead.test', result: 'failed' },
    ]);
    expect((await results(id, '?result[]=syntax_error')).body.data.map((r: { address: string }) => r.address)).toEqual(bad(2));
    expect((await results(id, '?result[]=syntax_error&result[]=failed')).body.data).toHaveLength(4);
    expect((await results(id, '?result[]=valid')).body.data).toEqual([]);
    expect((await results(id)).body.data).toHaveLength(4);
    const wrong = await results(id, '?result[]=failed&result[]=nope');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: 'The given data was invalid.', errors: { 'result.1': ['The selected result.1 is invalid.'] } });
    const gql = await s.gql('query($id: ID!) { email_verification_list_results(email_verification_id: $id, result: ["failed"]) { data { address } } }', { id });
    expect(gql.body.data.email_verification_list_results.data).toHaveLength(2);
    // The official SDK's getListResult sends its `results` option as `results[0]=…`.
    const viaSdk = await sdkFor(s).emailVerification.getListResult(id, { results: ['syntax_error'] } as never);
    expect(viaSdk.body.data.map((r: { address: string }) => r.address)).toEqual(bad(2));
    expect((await results(id, '?results[0]=nope')).status).toBe(422);
  });
});

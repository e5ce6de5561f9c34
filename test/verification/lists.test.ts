import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, tokenWith, type TestServer } from '../support/server.js';
import { runListChunk } from '../../src/engines/verification/list.run.js';
import { addCredits, credits, mailDomain, sql, startVerificationServer, type ProbeSink } from './setup.js';

let s: TestServer;
let sink: ProbeSink;
let receiver: Receiver;
/** email_list.verified, as webhooks of two of the account's domains get it (an event of the account, of no domain, reaches both). */
let taps: EventTap[];
beforeAll(async () => {
  ({ s, sink } = await startVerificationServer({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
  receiver = await startReceiver();
  taps = [];
  for (let i = 0; i < 2; i++) taps.push(await tapEvents(s, receiver, { domainId: (await seedDomain(s)).id }, { types: ['email_list.verified'] }));
  mailDomain(s, 'list-ok.test');
  sink.mailbox('jane@list-ok.test');
  sink.refuse('stuffed@list-ok.test', 552);
  sink.refuse('shunned@list-ok.test', 554);
  sink.stall('slow@list-ok.test');
  mailDomain(s, 'list-catch.test');
  sink.catchAll('list-catch.test');
});
afterAll(async () => {
  await s?.close();
  await sink?.close();
  await receiver?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const LIST_KEYS = ['created_at', 'id', 'name', 'source', 'statistics', 'status', 'total', 'updated_at', 'verification_ended', 'verification_started'];
const STAT_KEYS = ['catch_all', 'disposable', 'failed', 'mailbox_blocked', 'mailbox_full', 'mailbox_not_found', 'role_based', 'syntax_error', 'typo', 'unknown', 'valid'];
// 55 syntax errors put the list over one job run's chunk (50), so the job re-enqueues itself.
const FILLER = Array.from({ length: 55 }, (_, i) => `not-an-address-${i}`);
const NETWORK = [
  'jane@list-ok.test', 'nobody@list-ok.test', 'stuffed@list-ok.test', 'shunned@list-ok.test', 'slow@list-ok.test',
  'anyone@list-catch.test', 'info@list-ok.test', 'someone@mailinator.com', 'someone@gmial.com',
];
const EMAILS = [...NETWORK, ...FILLER];

const create = (body: unknown, token?: string) => s.rest('POST', '/email-verification', { body, token });
const start = (id: string, token?: string) => s.rest('GET', `/email-verification/${id}/verify`, { token });
const get = (id: string, query = '', token?: string) => s.rest('GET', `/email-verification/${id}${query}`, { token });

async function settled(id: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await get(id);
    if (res.body.data.status.name !== 'verifying') return res;
    if (Date.now() > deadline) throw new Error(`list ${id} still verifying`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('verification lists', () => {
  let listId: string;

  it('creates a list in status created', async () => {
    const res = await create({ name: 'Newsletter', emails: EMAILS });
    expect(res.status).toBe(201);
    const list = res.body.data;
    expect(Object.keys(list).sort()).toEqual(LIST_KEYS);
    expect(list).toMatchObject({ name: 'Newsletter', total: EMAILS.length, source: 'api', status: { name: 'created', count: 0 }, verification_started: null, verification_ended: null });
    expect(Object.keys(list.statistics).sort()).toEqual(STAT_KEYS);
    expect(Object.values(list.statistics).every((n) => n === 0)).toBe(true);
    expect(list.created_at).toMatch(ISO);
    expect(list.updated_at).toMatch(ISO);
    listId = list.id;
  });

  it('402 when the credits do not cover the list, and nothing starts', async () => {
    await addCredits(s, 10);
    const res = await start(listId);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ message: `This request needs ${EMAILS.length} verification credits; the account has 10.` });
    expect((await get(listId)).body.data.status.name).toBe('created');
    expect(await credits(s)).toBe(10);
  });

  it('starts (reserving a credit per address), verifies in chunks, refunds failed, records the event', async () => {
    await addCredits(s, 100);
    const res = await start(listId);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: 'The verification of the list has started.' });
    expect(await credits(s)).toBe(110 - EMAILS.length);
    expect((await start(listId)).status).toBe(422);

    const done = (await settled(listId)).body.data;
    expect(done.status).toEqual({ name: 'verified', count: EMAILS.length });
    expect(done.verification_started).toMatch(ISO);
    expect(done.verification_ended).toMatch(ISO);
    expect(done.statistics).toEqual({
      valid: 1, catch_all: 1, mailbox_full: 1, role_based: 1, unknown: 0, syntax_error: 55, typo: 1,
      mailbox_not_found: 1, disposable: 1, mailbox_blocked: 1, failed: 1,
    });
    // The one failed check (slow@, timed out) is refunded.
    expect(await credits(s)).toBe(110 - EMAILS.length + 1);

    await taps[0].settle();
    for (const tap of taps) {
      const mine = tap.bodies().filter((e) => e.type === 'email_list.verified' && e.data.id === listId);
      expect(mine).toHaveLength(1);
      expect(mine[0].data).toEqual({ ...done, statistics: { ...done.statistics, not_verified: 0 } });
    }
  });

  it('pages the results, {address, result}, in upload order', async () => {
    const res = await s.rest('GET', `/email-verification/${listId}/results?limit=10&page=1`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.data[0]).toEqual({ address: 'jane@list-ok.test', result: 'valid' });
    expect(res.body.data[4]).toEqual({ address: 'slow@list-ok.test', result: 'failed' });
    expect(res.body.data[9]).toEqual({ address: 'not-an-address-0', result: 'syntax_error' });
    expect(Object.keys(res.body.meta).sort()).toEqual(['current_page', 'from', 'path', 'per_page', 'to']);
    expect(res.body.meta).toMatchObject({ current_page: 1, from: 1, to: 10, per_page: '10' });
    expect(res.body.links.last).toBeNull();
    expect(res.body.links.next).toMatch(/page=2/);
    const last = await s.rest('GET', `/email-verification/${listId}/results?limit=10&page=7`);
    expect(last.body.data).toHaveLength(4);
    expect(last.body.links.next).toBeNull();
  });

  it('detailed=true pages the addresses in emails (limit 1..100)', async () => {
    const plain = await get(listId);
    expect(plain.body.data.emails).toBeUndefined();
    const res = await get(listId, '?detailed=true&limit=2&page=2');
    expect(res.status).toBe(200);
    expect(res.body.data.emails).toEqual({
      data: [{ address: 'stuffed@list-ok.test', result: 'mailbox_full' }, { address: 'shunned@list-ok.test', result: 'mailbox_blocked' }],
      meta: { current_page: 2, from: 3, to: 4, per_page: '2' },
    });
    for (const [q, message] of [['?detailed=true&limit=0', 'The limit must be at least 1.'], ['?detailed=true&limit=101', 'The limit may not be greater than 100.']]) {
      const bad = await get(listId, q);
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ message: 'The given data was invalid.', errors: { limit: [message] } });
    }
  });

  it('lists the account\'s lists with the verification-list pager', async () => {
    const res = await s.rest('GET', '/email-verification?limit=10');
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { id: string }) => l.id)).toContain(listId);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(LIST_KEYS);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: '10' });
    expect(res.body.meta.last_page).toBeUndefined();
    expect(res.body.meta.total).toBeUndefined();
    expect(res.body.links.last).toBeNull();
    for (const [q, key, message] of [['?limit=9', 'limit', 'The limit must be at least 10.'], ['?limit=101', 'limit', 'The limit may not be greater than 100.'], ['?page=0', 'page', 'The page must be at least 1.']]) {
      const bad = await s.rest('GET', `/email-verification${q}`);
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
    }
  });

  it('pause, then resume on the credits already reserved', async () => {
    const list = (await create({ name: 'Resumed', emails: ['slow@list-ok.test', 'jane@list-ok.test'] })).body.data;
    const before = await credits(s);
    await start(list.id);
    const paused = await s.rest('PUT', `/email-verification/${list.id}/pause`);
    expect(paused.status).toBe(200);
    expect(Object.keys(paused.body.data).sort()).toEqual(LIST_KEYS);
    expect(paused.body.data.status.name).toBe('paused');
    expect((await s.rest('PUT', `/email-verification/${list.id}/pause`)).status).toBe(422);
    const resumed = await start(list.id);
    expect(resumed.status).toBe(202);
    expect(await credits(s)).toBe(before - 2);
    const done = (await settled(list.id)).body.data;
    expect(done.status).toEqual({ name: 'verified', count: 2 });
    expect(done.statistics).toMatchObject({ valid: 1, failed: 1 });
    expect(await credits(s)).toBe(before - 1);
  });

  it('only the current job chain works on a list: a run queued before a pause and resume leaves it alone', async () => {
    const list = (await create({ name: 'Chains', emails: ['jane@list-ok.test'] })).body.data;
    // Verifying under chain "current", with no job of its own queued.
    await sql(s, "update email_verification_lists set status = 'verifying', run_id = 'current' where id = $1", [list.id]);
    const results = async () => (await sql(s, 'select result from email_verifications where list_id = $1', [list.id])).map((r: { result: string | null }) => r.result);
    await runListChunk(s.app.services, list.id, 'older');
    expect(await results()).toEqual([null]);
    await runListChunk(s.app.services, list.id, 'current');
    expect(await results()).toEqual(['valid']);
    expect((await get(list.id)).body.data.status.name).toBe('verified');
  });

  it('each start and resume begins a new chain', async () => {
    const list = (await create({ name: 'Runs', emails: ['slow@list-ok.test', 'jane@list-ok.test'] })).body.data;
    const runOf = async () => (await sql(s, 'select run_id from email_verification_lists where id = $1', [list.id]))[0].run_id;
    await start(list.id);
    const first = await runOf();
    await s.rest('PUT', `/email-verification/${list.id}/pause`);
    await start(list.id);
    const second = await runOf();
    expect(first).toMatch(/^[a-z0-9]{16}$/);
    expect(second).toMatch(/^[a-z0-9]{16}$/);
    expect(second).not.toBe(first);
    expect((await settled(list.id)).body.data.status.name).toBe('verified');
  });

  it('cancel refunds what was not verified', async () => {
    const list = (await create({ name: 'Stopped', emails: ['slow@list-ok.test', 'jane@list-ok.test'] })).body.data;
    const before = await credits(s);
    expect((await s.rest('PUT', `/email-verification/${list.id}/pause`)).status).toBe(422);
    await start(list.id);
    const paused = await s.rest('PUT', `/email-verification/${list.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.data.status.name).toBe('paused');
    const canceled = await s.rest('PUT', `/email-verification/${list.id}/cancel`);
    expect(canceled.body.data.status.name).toBe('canceled');
    expect(canceled.body.data.verification_ended).toMatch(ISO);
    // A run in flight stores nothing after the cancel: the account pays only for what was stored.
    await new Promise((r) => setTimeout(r, 1500));
    const [row] = await sql(s, "select count(*)::int as n from email_verifications where list_id = $1 and result is not null and result <> 'failed'", [list.id]);
    expect(await credits(s)).toBe(before - row.n);
    expect((await s.rest('GET', `/email-verification/${list.id}/results`)).body.data.filter((r: { result: string | null }) => r.result).length).toBe(row.n);
    expect((await start(list.id)).status).toBe(422);
  });

  it('422 on the body', async () => {
    for (const [body, key, message] of [
      [{ emails: ['a@b.test'] }, 'name', 'The name field is required.'],
      [{ name: 'x' }, 'emails', 'The emails field is required.'],
      [{ name: 'x', emails: [] }, 'emails', 'The emails field is required.'],
      [{ name: 'x'.repeat(256), emails: ['a@b.test'] }, 'name', 'The name may not be greater than 255 characters.'],
      [{ name: 'x', emails: ['x'.repeat(321)] }, 'emails.0', 'The emails.0 may not be greater than 320 characters.'],
    ] as const) {
      const res = await create(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
    }
  });

  it('404 for unknown and other accounts\' lists; their lists never show ours', async () => {
    for (const path of ['/email-verification/nope', '/email-verification/nope/results', '/email-verification/nope/verify']) {
      const res = await s.rest('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Resource not found.' });
    }
    const other = await createAccount(s, 'Lists other');
    expect((await get(listId, '', other.token)).status).toBe(404);
    expect((await start(listId, other.token)).status).toBe(404);
    expect((await s.rest('GET', `/email-verification/${listId}/results`, { token: other.token })).status).toBe(404);
    expect((await s.rest('PUT', `/email-verification/${listId}/cancel`, { token: other.token })).status).toBe(404);
    expect((await s.rest('GET', '/email-verification', { token: other.token })).body.data).toEqual([]);
  });

  it('401, and 403 per scope: read may GET, only full may create or start', async () => {
    expect((await get(listId, '', null as never)).status).toBe(401);
    const read = await tokenWith(s, ['email_verification_read']);
    expect((await get(listId, '', read)).status).toBe(200);
    expect((await s.rest('GET', '/email-verification', { token: read })).status).toBe(200);
    expect((await create({ name: 'x', emails: ['a@b.test'] }, read)).status).toBe(403);
    expect((await start(listId, read)).status).toBe(403);
    const none = await tokenWith(s, ['email_full']);
    expect((await get(listId, '', none)).status).toBe(403);
    expect((await s.rest('GET', `/email-verification/${listId}/results`, { token: none })).status).toBe(403);
    // Lists belong to the account, not to a domain: out of a domain-limited token's reach.
    const domain = await seedDomain(s);
    const limited = await tokenWith(s, ['email_verification_full'], domain.id);
    expect((await get(listId, '', limited)).body).toEqual({ message: 'This token is limited to one domain; this action needs a token for the whole account.' });
  });

  it('works through GraphQL', async () => {
    const created = await s.gql('mutation($n: String!, $e: [String!]!) { create_email_verification_list(name: $n, emails: $e) { id name total status { name count } } }', {
      n: 'GQL',
      e: ['jane@list-ok.test', 'info@list-ok.test'],
    });
    const list = created.body.data.create_email_verification_list;
    expect(list).toEqual({ id: expect.any(String), name: 'GQL', total: 2, status: { name: 'created', count: 0 } });
    const started = await s.gql('mutation($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }', { id: list.id });
    expect(started.body.data.verify_email_verification_list.message).toBe('The verification of the list has started.');
    await settled(list.id);
    const q = `query($id: ID!) {
      email_verification_list(email_verification_id: $id, detailed: true, limit: 1) { status { name count } statistics { valid role_based } emails { data { address result } meta { per_page } } }
      email_verification_list_results(email_verification_id: $id, limit: 10) { data { address result } }
      email_verification_lists(limit: 10) { data { id } meta { current_page per_page } }
    }`;
    const read = await s.gql(q, { id: list.id });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.email_verification_list).toEqual({
      status: { name: 'verified', count: 2 },
      statistics: { valid: 1, role_based: 1 },
      emails: { data: [{ address: 'jane@list-ok.test', result: 'valid' }], meta: { per_page: '1' } },
    });
    expect(read.body.data.email_verification_list_results.data).toEqual([
      { address: 'jane@list-ok.test', result: 'valid' },
      { address: 'info@list-ok.test', result: 'role_based' },
    ]);
    expect(read.body.data.email_verification_lists.data[0].id).toBe(list.id);
    const other = await createAccount(s, 'GraphQL lists other');
    const hidden = await s.gql(q, { id: list.id }, other.token);
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const cancel = await s.gql('mutation($id: ID!) { cancel_email_verification_list(email_verification_id: $id) { status { name } } }', { id: list.id });
    expect(cancel.body.errors[0].extensions.code).toBeDefined();
  });
});

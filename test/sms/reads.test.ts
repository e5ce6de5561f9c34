import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { assignNumber, INVALID, NOT_FOUND, phone, settled, sql } from './support.js';

/** Messages, activity and recipients, over texts sent with the capture provider. */
let s: TestServer;
let other: { id: string; token: string };
let n1: { id: string; telephone_number: string };
let n2: { id: string; telephone_number: string };
let theirs: { id: string; telephone_number: string };
let m1: string;
let m2: string;
let mTheirs: string;
const [a, b, c] = [phone(), phone(), phone()];
let startedAt: number;

async function send(from: string, to: string[], text: string, token?: string) {
  const res = await s.rest('POST', '/sms', { token, body: { from, to, text, personalization: [{ phone_number: to[0], data: { n: 'first' } }] } });
  if (res.status !== 202) throw new Error(res.text);
  const id = res.headers.get('x-sms-message-id')!;
  await settled(s, id);
  return id;
}

beforeAll(async () => {
  s = await startTestServer();
  other = await createAccount(s);
  [n1, n2, theirs] = [await assignNumber(s), await assignNumber(s), await assignNumber(s, other.token)];
  startedAt = Math.floor(Date.now() / 1000);
  m1 = await send(n1.telephone_number, [a, b], 'One {{n}}');
  m2 = await send(n2.telephone_number, [c], 'Two {{n}}');
  mTheirs = await send(theirs.telephone_number, [a], 'Theirs', other.token);
});
afterAll(async () => {
  await s?.close();
});

describe('GET /v1/sms-messages', () => {
  it('lists the account\'s messages newest first, in the list shape', async () => {
    const res = await s.rest('GET', '/sms-messages');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([m2, m1]);
    const [first] = res.body.data;
    expect(Object.keys(first).sort()).toEqual(['created_at', 'from', 'id', 'paused', 'text', 'to']);
    expect(first).toEqual({ id: m2, from: n2.telephone_number, to: [c], text: 'Two {{n}}', paused: false, created_at: expect.stringMatching(ISO) });
    expect((await s.rest('GET', '/sms-messages?limit=10&page=2')).body.data).toEqual([]);
    expect((await s.rest('GET', '/sms-messages?limit=5')).body.errors).toEqual({ limit: ['The limit must be at least 10.'] });
  });

  it('shows one message with each of its texts, in the order of to', async () => {
    const res = await s.rest('GET', `/sms-messages/${m1}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(['created_at', 'from', 'id', 'paused', 'sms', 'text', 'to']);
    expect(d).toMatchObject({ id: m1, from: n1.telephone_number, to: [a, b], text: 'One {{n}}', paused: false });
    expect(d.sms.map((x: { to: string }) => x.to)).toEqual([a, b]);
    expect(Object.keys(d.sms[0]).sort()).toEqual(['created_at', 'error_description', 'error_type', 'from', 'id', 'segment_count', 'status', 'text', 'to']);
    expect(d.sms[0]).toEqual({
      id: expect.any(String),
      from: n1.telephone_number,
      to: a,
      text: 'One first',
      status: 'delivered',
      segment_count: 1,
      error_type: null,
      error_description: null,
      created_at: expect.stringMatching(ISO),
    });
    expect(d.sms[1].text).toBe('One ');
  });

  it('answers 404 for unknown and other accounts\' messages', async () => {
    for (const id of ['nope', mTheirs]) expect(await s.rest('GET', `/sms-messages/${id}`).then((r) => [r.status, r.body])).toEqual([404, NOT_FOUND]);
    expect((await s.rest('GET', `/sms-messages/${mTheirs}`, { token: other.token })).status).toBe(200);
  });
});

describe('GET /v1/sms-activity', () => {
  const list = async (q = '') => (await s.rest('GET', `/sms-activity${q}`)).body.data as Record<string, unknown>[];

  it('lists each status reached, newest first, in the SDK shape', async () => {
    const rows = await list('?limit=100');
    expect(rows).toHaveLength(9);
    expect(Object.keys(rows[0]).sort()).toEqual(['content', 'created_at', 'from', 'sms_message_id', 'status', 'to']);
    expect(rows.slice(0, 3)).toEqual([
      { from: n2.telephone_number, to: c, created_at: expect.stringMatching(ISO), content: 'Two first', status: 'delivered', sms_message_id: m2 },
      expect.objectContaining({ to: c, status: 'sent' }),
      expect.objectContaining({ to: c, status: 'queued' }),
    ]);
    const times = rows.map((r) => r.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by number, status[] and dates', async () => {
    expect((await list(`?sms_number_id=${n2.id}`)).map((r) => r.status)).toEqual(['delivered', 'sent', 'queued']);
    const delivered = await list('?status[]=delivered&limit=100');
    expect(delivered.map((r) => r.to).sort()).toEqual([a, b, c].sort());
    expect((await list('?status[]=queued&status[]=sent&limit=100'))).toHaveLength(6);
    expect(await list('?status[]=processed')).toEqual([]);
    const now = Math.floor(Date.now() / 1000) + 1;
    expect(await list(`?date_from=${startedAt}&date_to=${now}&limit=100`)).toHaveLength(9);
    expect(await list(`?date_from=${now + 10}`)).toEqual([]);
    expect(await list(`?date_to=${startedAt - 10}`)).toEqual([]);
  });

  it('answers 422 for bad filters and 404 for another account\'s number', async () => {
    const bad = async (q: string) => (await s.rest('GET', `/sms-activity${q}`)).body;
    expect(await bad('?status[]=opened')).toEqual({ message: INVALID, errors: { 'status.0': ['The selected status.0 is invalid.'] } });
    expect((await bad('?date_from=yesterday')).errors).toEqual({ date_from: ['The date from must be an integer.'] });
    expect((await bad('?date_from=200&date_to=100')).errors).toEqual({
      date_from: ['The date from must be a date before date to.'],
      date_to: ['The date to must be a date after date from.'],
    });
    expect((await bad('?limit=101')).errors).toEqual({ limit: ['The limit may not be greater than 100.'] });
    expect(await s.rest('GET', `/sms-activity?sms_number_id=${theirs.id}`).then((r) => [r.status, r.body])).toEqual([404, NOT_FOUND]);
  });
});

describe('/v1/sms-recipients', () => {
  const idOf = async (num: string) => (await sql(s, 'select id from sms_recipients where number = ? and account_id = (select account_id from sms_numbers where id = ?)', [num, n1.id]))[0].id;

  it('lists recipients newest first, filtered by status and by the number that sent to them', async () => {
    const res = await s.rest('GET', '/sms-recipients');
    expect(res.status).toBe(200);
    const numbers = res.body.data.map((r: { number: string }) => r.number);
    expect(numbers.sort()).toEqual([a, b, c].sort());
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['created_at', 'id', 'number', 'status']);
    expect(res.body.data[0].created_at).toMatch(ISO);
    expect((await s.rest('GET', `/sms-recipients?sms_number_id=${n2.id}`)).body.data.map((r: { number: string }) => r.number)).toEqual([c]);
    expect((await s.rest('GET', `/sms-recipients?sms_number_id=${n1.id}`)).body.data.map((r: { number: string }) => r.number).sort()).toEqual([a, b].sort());
    expect((await s.rest('GET', '/sms-recipients?status=opt_out')).body.data).toEqual([]);
    expect((await s.rest('GET', '/sms-recipients?status=active')).body.data).toHaveLength(3);
  });

  it('shows one recipient with its texts, and opts it out and back in', async () => {
    const id = await idOf(a);
    const one = await s.rest('GET', `/sms-recipients/${id}`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.data).sort()).toEqual(['created_at', 'id', 'number', 'sms', 'status']);
    expect(one.body.data).toMatchObject({ id, number: a, status: 'active' });
    // Only this account's texts: the other account also texted this number.
    expect(one.body.data.sms).toEqual([expect.objectContaining({ to: a, text: 'One first', status: 'delivered', segment_count: 1 })]);

    const out = await s.rest('PUT', `/sms-recipients/${id}`, { body: { status: 'opt_out' } });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ id, number: a, status: 'opt_out' });
    expect((await s.rest('GET', '/sms-recipients?status=opt_out')).body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const back = await s.rest('PUT', `/sms-recipients/${id}`, { body: { status: 'active' } });
    expect(back.body.data.status).toBe('active');
  });

  it('answers 422, 404 and keeps accounts apart', async () => {
    const id = await idOf(b);
    expect((await s.rest('PUT', `/sms-recipients/${id}`, { body: { status: 'gone' } })).body).toEqual({ message: INVALID, errors: { status: ['The selected status is invalid.'] } });
    expect((await s.rest('PUT', `/sms-recipients/${id}`, { body: {} })).body.errors).toEqual({ status: ['The status field is required.'] });
    expect((await s.rest('GET', '/sms-recipients?status=blocked')).body.errors).toEqual({ status: ['The selected status is invalid.'] });
    expect((await s.rest('GET', `/sms-recipients?sms_number_id=${theirs.id}`)).status).toBe(404);
    const [theirRecipient] = await sql(s, 'select id from sms_recipients where account_id = ?', [other.id]);
    for (const rid of ['nope', theirRecipient.id]) {
      expect(await s.rest('GET', `/sms-recipients/${rid}`).then((r) => [r.status, r.body])).toEqual([404, NOT_FOUND]);
      expect((await s.rest('PUT', `/sms-recipients/${rid}`, { body: { status: 'opt_out' } })).status).toBe(404);
    }
    expect((await s.rest('GET', `/sms-recipients/${theirRecipient.id}`, { token: other.token })).body.data.status).toBe('active');
    expect((await s.rest('GET', '/sms-recipients', { token: other.token })).body.data.map((r: { number: string }) => r.number)).toEqual([a]);
  });
});

describe('auth', () => {
  it('401 without a token; reads need sms_read, updates sms_full', async () => {
    for (const p of ['/sms-messages', `/sms-messages/${m1}`, '/sms-activity', '/sms-recipients']) {
      expect((await s.rest('GET', p, { token: null })).status).toBe(401);
    }
    const none = await tokenWith(s, ['email_full']);
    const read = await tokenWith(s, ['sms_read']);
    const rid = (await sql(s, 'select id from sms_recipients where number = ? and account_id <> ?', [c, other.id]))[0].id;
    for (const p of ['/sms-messages', `/sms-messages/${m1}`, '/sms-activity', '/sms-recipients', `/sms-recipients/${rid}`]) {
      expect((await s.rest('GET', p, { token: none })).status).toBe(403);
      expect((await s.rest('GET', p, { token: read })).status).toBe(200);
    }
    expect((await s.rest('PUT', `/sms-recipients/${rid}`, { token: read, body: { status: 'active' } })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('reads messages, activity and recipients and updates a recipient', async () => {
    const res = await s.gql(
      `query($m: ID!, $n: ID!) {
        sms_messages(limit: 10) { id }
        sms_message(sms_message_id: $m) { id to paused sms { to text status segment_count } }
        sms_activity(sms_number_id: $n, status: ["delivered"]) { to content status sms_message_id }
        sms_recipients(sms_number_id: $n) { id number status }
      }`,
      { m: m1, n: n2.id },
    );
    expect(res.body.errors).toBeUndefined();
    const d = res.body.data;
    expect(d.sms_messages.map((m: { id: string }) => m.id)).toEqual([m2, m1]);
    expect(d.sms_message).toEqual({ id: m1, to: [a, b], paused: false, sms: [
      { to: a, text: 'One first', status: 'delivered', segment_count: 1 },
      { to: b, text: 'One ', status: 'delivered', segment_count: 1 },
    ] });
    expect(d.sms_activity).toEqual([{ to: c, content: 'Two first', status: 'delivered', sms_message_id: m2 }]);
    expect(d.sms_recipients).toEqual([{ id: expect.any(String), number: c, status: 'active' }]);
    const upd = await s.gql('mutation($id: ID!) { update_sms_recipient(sms_recipient_id: $id, status: "opt_out") { id status sms { to } } }', { id: d.sms_recipients[0].id });
    expect(upd.body.data.update_sms_recipient).toEqual({ id: d.sms_recipients[0].id, status: 'opt_out', sms: [{ to: c }] });
    const cross = await s.gql('query($m: ID!) { sms_message(sms_message_id: $m) { id } }', { m: mTheirs });
    expect(cross.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

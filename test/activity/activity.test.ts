import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { address, emailRef, emailsOf, record, send, setPlan, waitFor } from '../email-log/helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
let other: { id: string; name: string };
let adminId: string;
let msg: string;
let emails: any[];
const T0 = Math.floor(Date.now() / 1000) - 60;
const range = (from = T0, to = Math.floor(Date.now() / 1000) + 60) => `date_from=${from}&date_to=${to}`;

beforeAll(async () => {
  s = await startTestServer();
  adminId = await accountIdOf(s);
  domain = await seedDomain(s, { dkim: true });
  other = await seedDomain(s, { dkim: true });
  msg = await send(s, domain, { to: [address(), address()], subject: 'Activity test', tags: ['t1'], text: 'Text body', html: '<b>Html body</b>' });
  emails = await emailsOf(s, msg);
});
afterAll(async () => {
  await s?.close();
});

// `suppression_reason` is there only when the type is `suppressed` (SPEC.md "Activity").
const ENTRY_KEYS = ['created_at', 'email', 'id', 'type', 'updated_at'];
const EMAIL_KEYS = ['created_at', 'from', 'html', 'id', 'recipient', 'status', 'subject', 'tags', 'text', 'updated_at'];

describe('GET /v1/activity/{domain_id}', () => {
  it('lists the domain\'s activity in the range, newest first, with the simple pager', async () => {
    const res = await s.rest('GET', `/activity/${domain.id}?${range()}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(res.body.meta).sort()).toEqual(['current_page', 'from', 'path', 'per_page', 'to']);
    expect(res.body.meta).toMatchObject({ current_page: 1, from: 1, to: 6, per_page: 25 });
    expect(res.body.meta.path).toMatch(new RegExp(`/v1/activity/${domain.id}$`));
    expect(res.body.links).toMatchObject({ last: null, prev: null, next: null });
    expect(res.body.links.first).toContain('page=1');
    const types = res.body.data.map((a: any) => a.type);
    expect(types.sort()).toEqual(['delivered', 'delivered', 'queued', 'queued', 'sent', 'sent']);
    const times = res.body.data.map((a: any) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const a of res.body.data) {
      expect(Object.keys(a).sort()).toEqual(ENTRY_KEYS);
      expect(Object.keys(a.email).sort()).toEqual(EMAIL_KEYS);
      expect(a.created_at).toMatch(PLAIN);
      expect(a.updated_at).toMatch(PLAIN);
      expect(a).not.toHaveProperty('suppression_reason');
      expect(a.email).toMatchObject({ from: `sender@${domain.name}`, subject: 'Activity test', text: 'Text body', html: '<b>Html body</b>', status: 'delivered', tags: ['t1'] });
      expect(a.email.created_at).toMatch(PLAIN);
      expect(Object.keys(a.email.recipient).sort()).toEqual(['created_at', 'deleted_at', 'email', 'id', 'updated_at']);
      expect(emails.map((e) => e.to)).toContain(a.email.recipient.email);
    }
    expect((await s.rest('GET', `/activity/${other.id}?${range()}`)).body.data).toEqual([]);
  });

  it('filters by event[] and by the time range, taking either date format; date_to is inclusive', async () => {
    const only = await s.rest('GET', `/activity/${domain.id}?${range()}&event[]=sent&event[]=queued`);
    expect(only.body.data.map((a: any) => a.type).sort()).toEqual(['queued', 'queued', 'sent', 'sent']);
    const ref = await emailRef(s, emails[0].id);
    const at = new Date(Date.UTC(2026, 0, 15, 10, 0, 0));
    const [id] = await record(s, [{ email: ref, type: 'opened', at }]);
    const unix = at.getTime() / 1000;
    const exact = await s.rest('GET', `/activity/${domain.id}?date_from=${encodeURIComponent('2026-01-15 09:00:00')}&date_to=${encodeURIComponent('2026-01-15 10:00:00')}`);
    expect(exact.status).toBe(200);
    expect(exact.body.data.map((a: any) => a.id)).toEqual([id]);
    expect(exact.body.data[0].created_at).toBe('2026-01-15 10:00:00');
    expect((await s.rest('GET', `/activity/${domain.id}?date_from=${unix - 10}&date_to=${unix - 1}`)).body.data).toEqual([]);
    expect((await s.rest('GET', `/activity/${domain.id}?date_from=${unix}&date_to=${unix + 1}`)).body.data).toHaveLength(1);
    expect((await s.rest('GET', `/activity/${domain.id}?date_from=${unix + 1}&date_to=${unix + 10}`)).body.data).toEqual([]);
  });

  it('pages: links.next while a page is full', async () => {
    const ref = await emailRef(s, emails[1].id);
    const base = Date.UTC(2026, 1, 1);
    await record(s, Array.from({ length: 12 }, (_, i) => ({ email: ref, type: 'clicked' as const, at: new Date(base + i * 1000) })));
    const q = `date_from=${base / 1000}&date_to=${base / 1000 + 3600}`;
    const p1 = await s.rest('GET', `/activity/${domain.id}?${q}&limit=10`);
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.meta).toMatchObject({ current_page: 1, from: 1, to: 10, per_page: 10 });
    expect(p1.body.links.next).toContain('page=2');
    expect(p1.body.data[0].created_at).toBe('2026-02-01 00:00:11');
    const p2 = await s.rest('GET', `/activity/${domain.id}?${q}&limit=10&page=2`);
    expect(p2.body.data).toHaveLength(2);
    expect(p2.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12 });
    expect(p2.body.links.next).toBeNull();
    expect(p2.body.links.prev).toContain('page=1');
    const p3 = await s.rest('GET', `/activity/${domain.id}?${q}&limit=10&page=3`);
    expect(p3.body.data).toEqual([]);
    expect(p3.body.meta).toMatchObject({ from: null, to: null });
  });

  const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
  it.each([
    ['date_to=1700000000', { date_from: ['The date from field is required.'] }],
    ['date_from=1700000000', { date_to: ['The date to field is required.'] }],
    ['date_from=yesterday&date_to=1700000000', { date_from: ['The date from must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.'] }],
    ['date_from=1700000000&date_to=2026-02-30%2010:00:00', { date_to: ['The date to must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.'] }],
    ['date_from=1700000000&date_to=1700000000', { date_from: ['The date from must be a date before date to.'], date_to: ['The date to must be a date after date from.'] }],
    ['date_from=1700000001&date_to=1700000000', { date_from: ['The date from must be a date before date to.'], date_to: ['The date to must be a date after date from.'] }],
    [`${range()}&page=1001`, { page: ['The page may not be greater than 1000.'] }],
    [`${range()}&page=0`, { page: ['The page must be at least 1.'] }],
    [`${range()}&limit=9`, { limit: ['The limit must be at least 10.'] }],
    [`${range()}&limit=101`, { limit: ['The limit may not be greater than 100.'] }],
    [`${range()}&event[]=sent&event[]=bogus`, { 'event.1': ['The selected event.1 is invalid.'] }],
  ])('422 for ?%s', async (q, errors) => {
    const res = await s.rest('GET', `/activity/${domain.id}?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(errors));
  });

  it('404 for an unknown domain', async () => {
    const res = await s.rest('GET', `/activity/nope?${range()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('plans: deferred and suppressed need Starter or above', () => {
  it('on free they are never shown and filtering by them is a 422; on starter they are', async () => {
    const ref = await emailRef(s, emails[0].id);
    const at = new Date(Date.UTC(2026, 2, 1, 12));
    const [deferred, suppressed] = await record(s, [
      { email: ref, type: 'deferred', at },
      { email: ref, type: 'suppressed', suppression_reason: 'hard_bounced', at },
    ]);
    const q = `date_from=${at.getTime() / 1000 - 1}&date_to=${at.getTime() / 1000 + 1}`;
    await setPlan(s, adminId, 'free');
    expect((await s.rest('GET', `/activity/${domain.id}?${q}`)).body.data).toEqual([]);
    const bad = await s.rest('GET', `/activity/${domain.id}?${q}&event[]=sent&event[]=deferred&event[]=suppressed`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      'event.1': ['The selected event is available on the Starter plan or above.'],
      'event.2': ['The selected event is available on the Starter plan or above.'],
    });
    expect((await s.rest('GET', `/activities/${deferred}`)).status).toBe(404);
    expect((await s.rest('GET', `/activities/${suppressed}`)).status).toBe(404);

    await setPlan(s, adminId, 'starter');
    try {
      const all = await s.rest('GET', `/activity/${domain.id}?${q}`);
      expect(all.body.data.map((a: any) => a.type).sort()).toEqual(['deferred', 'suppressed']);
      const only = await s.rest('GET', `/activity/${domain.id}?${q}&event[]=suppressed`);
      expect(only.body.data).toHaveLength(1);
      expect(only.body.data[0]).toMatchObject({ id: suppressed, type: 'suppressed', suppression_reason: 'hard_bounced' });
      const single = (await s.rest('GET', `/activities/${deferred}`)).body.data;
    expect(single).toMatchObject({ type: 'deferred' });
    expect(single).not.toHaveProperty('suppression_reason');
    } finally {
      await setPlan(s, adminId, 'free');
    }
  });
});

describe('GET /v1/activities/{activity_id}', () => {
  it('answers one activity; 404 when unknown', async () => {
    const list = await s.rest('GET', `/activity/${domain.id}?${range()}&event[]=delivered`);
    const id = list.body.data[0].id;
    const res = await s.rest('GET', `/activities/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual(list.body.data[0]);
    const missing = await s.rest('GET', '/activities/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('access', () => {
  it('401, 403 without activity_read, 403 for another domain of a limited token', async () => {
    const id = (await s.rest('GET', `/activity/${domain.id}?${range()}`)).body.data[0].id;
    expect((await s.rest('GET', `/activity/${domain.id}?${range()}`, { token: null })).status).toBe(401);
    expect((await s.rest('GET', `/activities/${id}`, { token: 'mlsn.nope' })).status).toBe(401);
    const none = await tokenWith(s, ['analytics_read']);
    const forbidden = await s.rest('GET', `/activity/${domain.id}?${range()}`, { token: none });
    expect(forbidden.status).toBe(403);
    expect(Object.keys(forbidden.body)).toEqual(['message']);
    expect((await s.rest('GET', `/activities/${id}`, { token: none })).status).toBe(403);
    const limited = await tokenWith(s, ['activity_read'], other.id);
    expect((await s.rest('GET', `/activity/${domain.id}?${range()}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', `/activities/${id}`, { token: limited })).status).toBe(403);
    expect((await s.rest('GET', `/activity/${other.id}?${range()}`, { token: limited })).status).toBe(200);
  });

  it('another account gets 404 for these ids and sees its own activity only', async () => {
    const id = (await s.rest('GET', `/activity/${domain.id}?${range()}`)).body.data[0].id;
    const acct = await createAccount(s);
    expect((await s.rest('GET', `/activity/${domain.id}?${range()}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('GET', `/activities/${id}`, { token: acct.token })).status).toBe(404);
    const theirs = await seedDomain(s, { token: acct.token, dkim: true });
    const m = await send(s, theirs, { token: acct.token });
    await emailsOf(s, m, 'delivered', acct.token);
    const own = await waitFor('their activity', async () => {
      const r = await s.rest('GET', `/activity/${theirs.id}?${range()}`, { token: acct.token });
      return r.body.data.length === 3 ? r : null;
    });
    expect(own.body.data.map((a: any) => a.id)).not.toContain(id);
  });
});

describe('GraphQL', () => {
  it('activities and activity', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await s.gql(
      `query($d: ID!, $f: String!, $t: String!) {
        activities(domain_id: $d, date_from: $f, date_to: $t, event: ["queued"], limit: 10) {
          data { id type suppression_reason email { subject recipient { email } } }
          meta { current_page from to per_page }
        }
      }`,
      { d: domain.id, f: String(T0), t: String(now + 60) },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.activities.meta).toEqual({ current_page: 1, from: 1, to: 2, per_page: 10 });
    expect(res.body.data.activities.data.map((a: any) => a.type)).toEqual(['queued', 'queued']);
    const id = res.body.data.activities.data[0].id;
    const one = await s.gql('query($id: ID!) { activity(activity_id: $id) { id type email { id } } }', { id });
    expect(one.body.data.activity).toMatchObject({ id, type: 'queued' });
    const bad = await s.gql('query($d: ID!) { activities(domain_id: $d, date_from: "5", date_to: "4") { data { id } } }', { d: domain.id });
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(bad.body.errors[0].extensions.errors).sort()).toEqual(['date_from', 'date_to']);
    const missing = await s.gql('query { activity(activity_id: "nope") { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

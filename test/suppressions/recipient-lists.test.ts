import { seedDomain, seedRecipient } from '../support/factories.js';
import { tapEvents } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, ISO, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
let receiver: Receiver;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

const LISTS = [
  { slug: 'hard-bounces', query: 'hard_bounces', add: 'add_hard_bounces', remove: 'delete_hard_bounces' },
  { slug: 'spam-complaints', query: 'spam_complaints', add: 'add_spam_complaints', remove: 'delete_spam_complaints' },
  { slug: 'unsubscribes', query: 'unsubscribes', add: 'add_unsubscribes', remove: 'delete_unsubscribes' },
  { slug: 'on-hold-list', query: 'on_hold_list', add: 'add_on_hold_list', remove: 'delete_on_hold_list' },
];
const ENTRY_KEYS = ['created_at', 'id', 'reason', 'recipient'];
const RECIPIENT_KEYS = ['created_at', 'deleted_at', 'email', 'id', 'updated_at'];
let n = 0;
const address = () => `rl${++n}@example.org`;
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });

describe.each(LISTS)('/v1/suppressions/$slug', ({ slug, query }) => {
  const path = `/suppressions/${slug}`;
  const onHold = slug === 'on-hold-list';
  const keys = onHold ? [...ENTRY_KEYS, 'on_hold_until'].sort() : ENTRY_KEYS;

  it('adds recipients (201), lists them newest first with exact keys, and deduplicates', async () => {
    const d = await seedDomain(s);
    const [a, b] = [address(), address()];
    const res = await s.rest('POST', path, { body: { domain_id: d.id, recipients: [a, b.toUpperCase()] } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(2);
    for (const e of res.body.data) {
      expect(Object.keys(e).sort()).toEqual(keys);
      expect(e.created_at).toMatch(ISO);
      expect(e.reason).toBe('Added via API');
      expect(Object.keys(e.recipient).sort()).toEqual(RECIPIENT_KEYS);
      expect(e.recipient.created_at).toMatch(PLAIN);
      expect(e.recipient.deleted_at).toBe('');
      if (onHold) {
        expect(e.on_hold_until).toMatch(ISO);
        const days = (Date.parse(e.on_hold_until) - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(29.9);
        expect(days).toBeLessThan(30.1);
      }
    }
    expect(res.body.data.map((e: any) => e.recipient.email)).toEqual([a, b]);

    // Again, with one new address: the old entries come back as they were, nothing is doubled.
    const c = address();
    const again = await s.rest('POST', path, { body: { domain_id: d.id, recipients: [a, c] } });
    expect(again.status).toBe(201);
    expect(again.body.data[0].id).toBe(res.body.data[0].id);

    const list = await s.rest('GET', `${path}?domain_id=${d.id}`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['data']);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data[0].recipient.email).toBe(c);
    for (const e of list.body.data) expect(Object.keys(e).sort()).toEqual(keys);
  });

  it('uses an existing recipient, and brings back a deleted one', async () => {
    const d = await seedDomain(s);
    const r = await seedRecipient(s, d.id, address());
    expect((await s.rest('DELETE', `/recipients/${r.id}`)).status).toBe(204);
    const res = await s.rest('POST', path, { body: { domain_id: d.id, recipients: [r.email] } });
    expect(res.body.data[0].recipient).toMatchObject({ id: r.id, email: r.email, deleted_at: '' });
    expect((await s.rest('GET', `/recipients/${r.id}`)).status).toBe(200);
  });

  it('pages with limit 10..100, default 25', async () => {
    const d = await seedDomain(s);
    const many = Array.from({ length: 30 }, address);
    expect((await s.rest('POST', path, { body: { domain_id: d.id, recipients: many } })).status).toBe(201);
    expect((await s.rest('GET', `${path}?domain_id=${d.id}`)).body.data).toHaveLength(25);
    expect((await s.rest('GET', `${path}?domain_id=${d.id}&limit=10&page=3`)).body.data).toHaveLength(10);
    expect((await s.rest('GET', `${path}?domain_id=${d.id}&limit=100`)).body.data).toHaveLength(30);
    for (const q of ['limit=9', 'limit=101', 'page=0']) {
      const res = await s.rest('GET', `${path}?${q}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([q.split('=')[0]]);
    }
  });

  it('404 for an unknown or another account\'s domain_id on GET', async () => {
    const other = await createAccount(s, `Other ${slug}`);
    const theirs = await seedDomain(s, { token: other.token });
    for (const id of ['nope', theirs.id]) {
      const res = await s.rest('GET', `${path}?domain_id=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Resource not found.' });
    }
  });

  it.each([
    [{ domain_id: undefined, recipients: ['x@example.org'] }, 'domain_id', 'The domain id field is required.'],
    [{ domain_id: 'nope', recipients: ['x@example.org'] }, 'domain_id', 'The selected domain id is invalid.'],
    [{}, 'recipients', 'The recipients field is required.'],
    [{ recipients: [] }, 'recipients', 'The recipients field is required.'],
    [{ recipients: ['ok@example.org', 'not-an-address'] }, 'recipients.1', 'The recipients.1 must be a valid email address.'],
    [{ recipients: Array.from({ length: 1001 }, (_, i) => `m${i}@example.org`) }, 'recipients', 'The recipients may not have more than 1000 items.'],
  ])('422 on POST %#', async (body, key, text) => {
    const res = await s.rest('POST', path, { body: { domain_id: domain.id, ...body } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ [key]: [text] }));
  });

  it('422 for another account\'s domain_id on POST and DELETE', async () => {
    const other = await createAccount(s, `Other2 ${slug}`);
    const theirs = await seedDomain(s, { token: other.token });
    const add = await s.rest('POST', path, { body: { domain_id: theirs.id, recipients: [address()] } });
    expect(add.body).toEqual(invalid({ domain_id: ['The selected domain id is invalid.'] }));
    const del = await s.rest('DELETE', path, { body: { domain_id: theirs.id, all: true } });
    expect(del.body).toEqual(invalid({ domain_id: ['The selected domain id is invalid.'] }));
  });

  it('deletes by ids (204, empty) and all; foreign ids are a 422', async () => {
    const d = await seedDomain(s);
    const other = await seedDomain(s);
    const added = (await s.rest('POST', path, { body: { domain_id: d.id, recipients: [address(), address(), address()] } })).body.data;
    const elsewhere = (await s.rest('POST', path, { body: { domain_id: other.id, recipients: [address()] } })).body.data;

    const bad = await s.rest('DELETE', path, { body: { domain_id: d.id, ids: [added[0].id, elsewhere[0].id, 'nope'] } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(invalid({ 'ids.1': ['The selected ids.1 is invalid.'], 'ids.2': ['The selected ids.2 is invalid.'] }));
    const neither = await s.rest('DELETE', path, { body: { domain_id: d.id } });
    expect(neither.body).toEqual(invalid({ ids: ['The ids field is required when all is not present.'] }));
    const allFalse = await s.rest('DELETE', path, { body: { domain_id: d.id, all: false } });
    expect(allFalse.status).toBe(422);
    expect((await s.rest('DELETE', path, { body: { ids: [added[0].id] } })).body).toEqual(invalid({ domain_id: ['The domain id field is required.'] }));

    const one = await s.rest('DELETE', path, { body: { domain_id: d.id, ids: [added[0].id] } });
    expect(one.status).toBe(204);
    expect(one.text).toBe('');
    expect((await s.rest('GET', `${path}?domain_id=${d.id}`)).body.data.map((e: any) => e.id).sort()).toEqual([added[1].id, added[2].id].sort());

    expect((await s.rest('DELETE', path, { body: { domain_id: d.id, all: true } })).status).toBe(204);
    expect((await s.rest('GET', `${path}?domain_id=${d.id}`)).body.data).toEqual([]);
    expect((await s.rest('GET', `${path}?domain_id=${other.id}`)).body.data).toHaveLength(1);
  });

  it('401 without a token, 403 without the scope', async () => {
    expect((await s.rest('GET', path, { token: null })).status).toBe(401);
    const read = await tokenWith(s, ['suppressions_read']);
    const none = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', path, { token: none })).status).toBe(403);
    expect((await s.rest('GET', path, { token: read })).status).toBe(200);
    const body = { domain_id: domain.id, recipients: [address()] };
    expect((await s.rest('POST', path, { token: read, body })).status).toBe(403);
    expect((await s.rest('DELETE', path, { token: read, body: { domain_id: domain.id, all: true } })).status).toBe(403);
  });

  it('a domain-limited token sees and changes only its domain', async () => {
    const mine = await seedDomain(s);
    const other = await seedDomain(s);
    const token = await tokenWith(s, ['suppressions_full'], mine.id);
    const otherEntry = (await s.rest('POST', path, { body: { domain_id: other.id, recipients: [address()] } })).body.data[0];
    const added = await s.rest('POST', path, { token, body: { domain_id: mine.id, recipients: [address()] } });
    expect(added.status).toBe(201);
    const list = await s.rest('GET', path, { token });
    expect(list.body.data.map((e: any) => e.id)).toEqual([added.body.data[0].id]);
    expect((await s.rest('GET', `${path}?domain_id=${other.id}`, { token })).status).toBe(403);
    expect((await s.rest('POST', path, { token, body: { domain_id: other.id, recipients: [address()] } })).status).toBe(403);
    expect((await s.rest('DELETE', path, { token, body: { domain_id: other.id, ids: [otherEntry.id] } })).status).toBe(403);
  });

  it('keeps accounts apart', async () => {
    const other = await createAccount(s, `Iso ${slug}`);
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirs = (await s.rest('POST', path, { token: other.token, body: { domain_id: theirDomain.id, recipients: [address()] } })).body.data[0];
    const ours = (await s.rest('POST', path, { body: { domain_id: domain.id, recipients: [address()] } })).body.data[0];
    const ourList = (await s.rest('GET', `${path}?limit=100`)).body.data.map((e: any) => e.id);
    expect(ourList).toContain(ours.id);
    expect(ourList).not.toContain(theirs.id);
    const theirList = (await s.rest('GET', `${path}?limit=100`, { token: other.token })).body.data.map((e: any) => e.id);
    expect(theirList).toEqual([theirs.id]);
    const del = await s.rest('DELETE', path, { body: { domain_id: domain.id, ids: [theirs.id] } });
    expect(del.body).toEqual(invalid({ 'ids.0': ['The selected ids.0 is invalid.'] }));
  });
});

describe('on-hold specifics', () => {
  const path = '/suppressions/on-hold-list';

  it('takes a future on_hold_until, refuses a past or malformed one', async () => {
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await s.rest('POST', path, { body: { domain_id: domain.id, recipients: [address()], on_hold_until: until } });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.data[0].on_hold_until)).toBe(Date.parse(until));
    for (const bad of [new Date(Date.now() - 60_000).toISOString(), 'tomorrow', '2030-13-45T00:00:00Z']) {
      const r = await s.rest('POST', path, { body: { domain_id: domain.id, recipients: [address()], on_hold_until: bad } });
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(['on_hold_until']);
    }
  });

  it('records recipient.on_hold_added and recipient.on_hold_removed as events of the domain', async () => {
    const d = await seedDomain(s);
    // A webhook of the domain subscribed to every kind, and one of another domain of the account.
    const events = await tapEvents(s, receiver, { domainId: d.id });
    const elsewhere = await tapEvents(s, receiver, { domainId: (await seedDomain(s)).id });
    const email = address();
    const added = (await s.rest('POST', path, { body: { domain_id: d.id, recipients: [email] } })).body.data[0];
    // Adding again changes nothing, so it tells nobody.
    await s.rest('POST', path, { body: { domain_id: d.id, recipients: [email] } });
    expect((await s.rest('DELETE', path, { body: { domain_id: d.id, ids: [added.id] } })).status).toBe(204);

    const rows = await events.settle();
    expect(rows.map((r) => r.type)).toEqual(['recipient.on_hold_added', 'recipient.on_hold_removed']);
    expect(elsewhere.bodies()).toEqual([]);
    for (const r of rows) {
      expect(r.data).toEqual({
        domain_id: d.id,
        object: 'on_hold_recipient',
        email,
        added_at: added.created_at,
        on_hold_until: added.on_hold_until,
      });
    }
  });

  it('records one removal event per entry when deleting all', async () => {
    const d = await seedDomain(s);
    const events = await tapEvents(s, receiver, { domainId: d.id });
    await s.rest('POST', path, { body: { domain_id: d.id, recipients: [address(), address()] } });
    expect((await s.rest('DELETE', path, { body: { domain_id: d.id, all: true } })).status).toBe(204);
    const counts: Record<string, number> = {};
    for (const e of await events.settle()) counts[e.type] = (counts[e.type] ?? 0) + 1;
    expect(counts).toEqual({ 'recipient.on_hold_added': 2, 'recipient.on_hold_removed': 2 });
  });

  it('writes no event when the change fails', async () => {
    const d = await seedDomain(s);
    const events = await tapEvents(s, receiver, { domainId: d.id });
    expect((await s.rest('POST', path, { body: { domain_id: d.id, recipients: [address(), 'bad'] } })).status).toBe(422);
    expect(await events.settle()).toEqual([]);
  });
});

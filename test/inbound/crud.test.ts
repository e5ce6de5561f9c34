import { seedDomain } from '../support/factories.js';
import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
let domain: { id: string; name: string };

beforeAll(async () => {
  // Private webhook targets stay refused here, to test the literal-address rule.
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const KEYS = [
  'address', 'catch_filter', 'catch_type', 'created_at', 'dns_checked_at', 'domain', 'domain_enabled', 'enabled', 'filters',
  'forwards', 'id', 'inbound_domain', 'match_filter', 'match_type', 'mxValues', 'name', 'priority', 'updated_at',
];
const NOT_FOUND = { message: 'Resource not found.' };
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
let seq = 0;

function body(extra: Record<string, unknown> = {}) {
  return {
    domain_id: domain.id,
    name: 'Support inbox',
    domain_enabled: false,
    forwards: [{ type: 'email', value: 'team@example.com' }],
    ...extra,
  };
}

async function created(extra: Record<string, unknown> = {}, token?: string) {
  const res = await s.rest('POST', '/inbound', { token, body: body(extra) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

describe('POST /v1/inbound', () => {
  it('creates a route with its own address, and answers 201 with the record', async () => {
    const res = await s.rest('POST', '/inbound', {
      body: body({
        name: 'Orders',
        domain_enabled: true,
        inbound_domain: `In.${domain.name}`,
        inbound_priority: 7,
        catch_type: 'one',
        catch_filter: { type: 'catch_recipient', filters: [{ comparer: 'equal', value: 'orders' }, { comparer: 'starts-with', value: 'order-' }] },
        match_filter: { type: 'match_header', filters: [{ comparer: 'contains', value: 'shop', key: 'X-Source' }] },
        forwards: [
          { type: 'email', value: 'orders@example.com' },
          { type: 'webhook', value: 'https://hooks.example.com/inbound' },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d.id).toMatch(/^[0-9a-z]{16}$/);
    expect(d.address).toMatch(/^[0-9a-z]{16}@inbound\.postbox\.local$/);
    expect(d).toMatchObject({
      name: 'Orders',
      domain_enabled: true,
      inbound_domain: `in.${domain.name}`,
      priority: 7,
      enabled: true,
      catch_type: 'one',
      match_type: 'all',
      dns_checked_at: null,
      catch_filter: {
        type: 'catch_recipient',
        filters: [
          { comparer: 'equal', value: 'orders', key: null },
          { comparer: 'starts-with', value: 'order-', key: null },
        ],
      },
      match_filter: { type: 'match_header', filters: [{ comparer: 'contains', value: 'shop', key: 'X-Source' }] },
      filters: [
        { type: 'catch_recipient', key: null, comparer: 'equal', value: 'orders' },
        { type: 'catch_recipient', key: null, comparer: 'starts-with', value: 'order-' },
        { type: 'match_header', key: 'X-Source', comparer: 'contains', value: 'shop' },
      ],
      mxValues: { priority: 10, target: 'inbound.postbox.local' },
    });
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect(Object.keys(d.domain).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });
    // Email forwards carry no secret; each webhook forward its own.
    expect(d.forwards).toHaveLength(2);
    expect(Object.keys(d.forwards[0]).sort()).toEqual(['id', 'type', 'value']);
    expect(d.forwards[0]).toMatchObject({ type: 'email', value: 'orders@example.com' });
    expect(Object.keys(d.forwards[1]).sort()).toEqual(['id', 'secret', 'type', 'value']);
    expect(d.forwards[1]).toMatchObject({ type: 'webhook', value: 'https://hooks.example.com/inbound' });
    expect(d.forwards[1].secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('defaults to catch_all / match_all, priority 0, no inbound domain', async () => {
    const d = await created();
    expect(d).toMatchObject({
      domain_enabled: false,
      inbound_domain: null,
      priority: 0,
      catch_type: 'all',
      match_type: 'all',
      catch_filter: { type: 'catch_all', filters: [] },
      match_filter: { type: 'match_all', filters: [] },
      filters: [
        { type: 'catch_all', key: null, comparer: null, value: null },
        { type: 'match_all', key: null, comparer: null, value: null },
      ],
    });
  });

  it('gives two webhook forwards different secrets, and every route a different address', async () => {
    const a = await created({ forwards: [{ type: 'webhook', value: 'https://a.example.com/' }, { type: 'webhook', value: 'https://b.example.com/' }] });
    const b = await created();
    expect(a.forwards[0].secret).not.toBe(a.forwards[1].secret);
    expect(a.address).not.toBe(b.address);
  });

  it('answers 422 for missing fields', async () => {
    const res = await s.rest('POST', '/inbound', { body: {} });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        domain_id: ['The domain id field is required.'],
        name: ['The name field is required.'],
      }),
    );
    const noForwards = await s.rest('POST', '/inbound', { body: { domain_id: domain.id, name: 'x' } });
    expect(noForwards.status).toBe(422);
    expect(noForwards.body).toEqual(invalid({ forwards: ['The forwards field is required.'] }));
  });

  it('answers 422 for wrong JSON types', async () => {
    const res = await s.rest('POST', '/inbound', {
      body: body({ domain_enabled: 'yes', inbound_priority: 'high', catch_filter: 'all', forwards: { type: 'email' } }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        domain_enabled: ['The domain enabled field must be true or false.'],
        inbound_priority: ['The inbound priority must be an integer.'],
        catch_filter: ['The catch filter must be an object.'],
        forwards: ['The forwards must be an array.'],
      }),
    );
  });

  it('answers 422 on name length, unknown domain, priority range', async () => {
    const other = await createAccount(s, 'Domain owner');
    const foreign = await seedDomain(s, { token: other.token });
    const long = await s.rest('POST', '/inbound', { body: body({ name: 'n'.repeat(192) }) });
    expect(long.body).toEqual(invalid({ name: ['The name may not be greater than 191 characters.'] }));
    expect((await s.rest('POST', '/inbound', { body: body({ name: 'n'.repeat(191) }) })).status).toBe(201);
    const blank = await s.rest('POST', '/inbound', { body: body({ name: '   ' }) });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.name).toEqual(['The name field is required.']);
    for (const id of ['nope', foreign.id]) {
      const res = await s.rest('POST', '/inbound', { body: body({ domain_id: id }) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid({ domain_id: ['The selected domain id is invalid.'] }));
    }
    const low = await s.rest('POST', '/inbound', { body: body({ inbound_priority: -1 }) });
    expect(low.body).toEqual(invalid({ inbound_priority: ['The inbound priority must be at least 0.'] }));
    const high = await s.rest('POST', '/inbound', { body: body({ inbound_priority: 101 }) });
    expect(high.body).toEqual(invalid({ inbound_priority: ['The inbound priority may not be greater than 100.'] }));
  });

  it('answers 422 on the inbound domain rules', async () => {
    const missing = await s.rest('POST', '/inbound', { body: body({ domain_enabled: true }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(invalid({ inbound_domain: ['The inbound domain field is required when domain enabled is true.'] }));
    const bad = await s.rest('POST', '/inbound', { body: body({ domain_enabled: true, inbound_domain: 'not a host' }) });
    expect(bad.body).toEqual(invalid({ inbound_domain: ['The inbound domain format is invalid.'] }));
    for (const host of [domain.name, 'in.elsewhere.example', `in.x${domain.name}`]) {
      const res = await s.rest('POST', '/inbound', { body: body({ domain_enabled: true, inbound_domain: host }) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid({ inbound_domain: [`The inbound domain must be a subdomain of ${domain.name}.`] }));
    }
  });

  it('refuses a second enabled route of the same inbound domain with the same priority', async () => {
    const host = `prio${++seq}.${domain.name}`;
    await created({ domain_enabled: true, inbound_domain: host, inbound_priority: 5 });
    const res = await s.rest('POST', '/inbound', { body: body({ domain_enabled: true, inbound_domain: host, inbound_priority: 5 }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ inbound_priority: [`Another enabled route of ${host} already has the priority 5.`] }));
    expect((await s.rest('POST', '/inbound', { body: body({ domain_enabled: true, inbound_domain: host, inbound_priority: 6 }) })).status).toBe(201);
    // A disabled one is no competitor.
    expect((await s.rest('POST', '/inbound', { body: body({ domain_enabled: true, inbound_domain: host, inbound_priority: 5, enabled: false }) })).status).toBe(201);
  });

  it('answers 422 on the filter rules', async () => {
    const res = await s.rest('POST', '/inbound', {
      body: body({
        catch_type: 'some',
        match_type: 'any',
        catch_filter: { type: 'catch_recipient', filters: [{ comparer: 'like', value: 'x' }, { comparer: 'equal', value: 'v'.repeat(192) }] },
        match_filter: { type: 'match_header', filters: [{ comparer: 'equal', value: 'x' }, { comparer: 'equal', value: 'x', key: 'Bad Header' }] },
      }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        catch_type: ['The selected catch type is invalid.'],
        match_type: ['The selected match type is invalid.'],
        'catch_filter.filters.0.comparer': ['The selected catch filter.filters.0.comparer is invalid.'],
        'catch_filter.filters.1.value': ['The catch filter.filters.1.value may not be greater than 191 characters.'],
        'match_filter.filters.0.key': ['The match filter.filters.0.key field is required when match filter.type is match_header.'],
        'match_filter.filters.1.key': ['The match filter.filters.1.key must be a header name.'],
      }),
    );
    const types = await s.rest('POST', '/inbound', { body: body({ catch_filter: { type: 'catch_one' }, match_filter: { type: 'match_body' } }) });
    expect(types.body).toEqual(
      invalid({ 'catch_filter.type': ['The selected catch filter.type is invalid.'], 'match_filter.type': ['The selected match filter.type is invalid.'] }),
    );
    const empty = await s.rest('POST', '/inbound', { body: body({ catch_filter: { type: 'catch_recipient' }, match_filter: { type: 'match_sender', filters: [] } }) });
    expect(empty.body).toEqual(
      invalid({
        'catch_filter.filters': ['The catch filter.filters field is required.'],
        'match_filter.filters': ['The match filter.filters field is required.'],
      }),
    );
    const many = Array.from({ length: 6 }, (_, i) => ({ comparer: 'equal', value: `v${i}` }));
    const tooMany = await s.rest('POST', '/inbound', { body: body({ match_filter: { type: 'match_domain', filters: many } }) });
    expect(tooMany.body).toEqual(invalid({ 'match_filter.filters': ['The match filter.filters may not have more than 5 items.'] }));
    const missing = await s.rest('POST', '/inbound', { body: body({ catch_filter: { type: 'catch_recipient', filters: [{ comparer: 'equal' }] } }) });
    expect(missing.body).toEqual(invalid({ 'catch_filter.filters.0.value': ['The catch filter.filters.0.value field is required.'] }));
  });

  it('answers 422 on the forward rules', async () => {
    const res = await s.rest('POST', '/inbound', {
      body: body({
        forwards: [
          { type: 'sms', value: 'x' },
          { type: 'email', value: 'not-an-email' },
          { type: 'webhook', value: 'ftp://files.example.com/' },
          { type: 'webhook', value: 'http://127.0.0.1:8080/hook' },
          { type: 'webhook', value: 'http://[::1]/hook' },
          { type: 'email', value: 'loop@inbound.postbox.local' },
          { type: 'email', value: 'a@example.com' },
          { type: 'email', value: 'A@example.com' },
          { type: 'webhook', value: `https://example.com/${'p'.repeat(180)}` },
        ],
      }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        'forwards.0.type': ['The selected forwards.0.type is invalid.'],
        'forwards.1.value': ['The forwards.1.value must be a valid email address.'],
        'forwards.2.value': ['The forwards.2.value format is invalid.'],
        'forwards.3.value': ['The forwards.3.value must point to a public address.'],
        'forwards.4.value': ['The forwards.4.value must point to a public address.'],
        'forwards.5.value': ['The forwards.5.value may not be an inbound route address.'],
        'forwards.7.value': ['The forwards.7.value field has a duplicate value.'],
        'forwards.8.value': ['The forwards.8.value may not be greater than 191 characters.'],
      }),
    );
    const eleven = Array.from({ length: 11 }, (_, i) => ({ type: 'email', value: `u${i}@example.com` }));
    const tooMany = await s.rest('POST', '/inbound', { body: body({ forwards: eleven }) });
    expect(tooMany.body).toEqual(invalid({ forwards: ['The forwards may not have more than 10 items.'] }));
    expect((await s.rest('POST', '/inbound', { body: body({ forwards: eleven.slice(0, 10) }) })).status).toBe(201);
    const none = await s.rest('POST', '/inbound', { body: body({ forwards: [] }) });
    expect(none.body).toEqual(invalid({ forwards: ['The forwards field is required.'] }));
    const blank = await s.rest('POST', '/inbound', { body: body({ forwards: [{ type: 'email' }] }) });
    expect(blank.body).toEqual(invalid({ 'forwards.0.value': ['The forwards.0.value field is required.'] }));
  });
});

describe('GET /v1/inbound', () => {
  it('lists newest first, filtered by domain, with page and limit', async () => {
    const d2 = await seedDomain(s);
    const a = await created({ domain_id: d2.id, name: 'first' });
    const b = await created({ domain_id: d2.id, name: 'second' });
    const res = await s.rest('GET', `/inbound?domain_id=${d2.id}`);
    expect(res.status).toBe(200);
    // COMPAT.md Pagers: a list SPEC.md leaves open answers the full pager when it pages.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.data.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(KEYS);
    for (let i = 0; i < 10; i++) await created({ domain_id: d2.id, name: `n${i}` });
    const p1 = await s.rest('GET', `/inbound?domain_id=${d2.id}&limit=10&page=1`);
    const p2 = await s.rest('GET', `/inbound?domain_id=${d2.id}&limit=10&page=2`);
    expect(p1.body.data).toHaveLength(10);
    expect(p2.body.data.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    const all = await s.rest('GET', '/inbound?limit=100');
    expect(all.body.data.length).toBeGreaterThan(12);
  });

  it('answers 422 on limit and page out of range, 404 for an unknown domain', async () => {
    expect((await s.rest('GET', '/inbound?limit=9')).body).toEqual(invalid({ limit: ['The limit must be at least 10.'] }));
    expect((await s.rest('GET', '/inbound?limit=101')).body).toEqual(invalid({ limit: ['The limit may not be greater than 100.'] }));
    expect((await s.rest('GET', '/inbound?page=0')).body).toEqual(invalid({ page: ['The page must be at least 1.'] }));
    const res = await s.rest('GET', '/inbound?domain_id=nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/inbound/{id}', () => {
  it('answers the record, or 404', async () => {
    const d = await created();
    const res = await s.rest('GET', `/inbound/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(d);
    const missing = await s.rest('GET', '/inbound/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe('PUT /v1/inbound/{id}', () => {
  it('changes only what is sent; a forward sent again keeps its id and secret', async () => {
    const d = await created({ forwards: [{ type: 'webhook', value: 'https://keep.example.com/' }, { type: 'email', value: 'old@example.com' }] });
    const res = await s.rest('PUT', `/inbound/${d.id}`, {
      body: {
        name: 'Renamed',
        domain_enabled: true,
        inbound_domain: `put.${domain.name}`,
        inbound_priority: 3,
        match_type: 'one',
        match_filter: { type: 'match_sender', filters: [{ comparer: 'ends-with', value: '@partner.example' }] },
        forwards: [{ type: 'webhook', value: 'https://keep.example.com/' }, { type: 'webhook', value: 'https://new.example.com/' }],
      },
    });
    expect(res.status).toBe(200);
    const u = res.body.data;
    expect(Object.keys(u).sort()).toEqual(KEYS);
    expect(u).toMatchObject({
      id: d.id,
      address: d.address,
      name: 'Renamed',
      domain_enabled: true,
      inbound_domain: `put.${domain.name}`,
      priority: 3,
      match_type: 'one',
      catch_filter: { type: 'catch_all', filters: [] },
      match_filter: { type: 'match_sender', filters: [{ comparer: 'ends-with', value: '@partner.example', key: null }] },
    });
    expect(u.forwards[0]).toEqual(d.forwards[0]);
    expect(u.forwards[1].id).not.toBe(d.forwards[1].id);
    expect(u.forwards[1].secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await s.rest('PUT', `/inbound/${d.id}`, { body: { enabled: false } });
    expect(again.body.data).toMatchObject({ name: 'Renamed', enabled: false, priority: 3, forwards: u.forwards });
  });

  it('answers 422 on the same rules as create, and 404 for an unknown id', async () => {
    const d = await created();
    const res = await s.rest('PUT', `/inbound/${d.id}`, {
      body: { name: ' ', domain_enabled: true, forwards: [], catch_filter: { type: 'catch_recipient', filters: [{ comparer: 'equal', value: 'x'.repeat(192) }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalid({
        name: ['The name field is required.'],
        inbound_domain: ['The inbound domain field is required when domain enabled is true.'],
        'catch_filter.filters.0.value': ['The catch filter.filters.0.value may not be greater than 191 characters.'],
        forwards: ['The forwards field is required.'],
      }),
    );
    const long = await s.rest('PUT', `/inbound/${d.id}`, { body: { name: 'n'.repeat(192) } });
    expect(long.body).toEqual(invalid({ name: ['The name may not be greater than 191 characters.'] }));
    const missing = await s.rest('PUT', '/inbound/nope', { body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /v1/inbound/{id}', () => {
  it('answers an empty 204, then 404', async () => {
    const d = await created();
    const res = await s.rest('DELETE', `/inbound/${d.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/inbound/${d.id}`)).status).toBe(404);
    const again = await s.rest('DELETE', `/inbound/${d.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});

describe('authentication and scopes', () => {
  it('answers 401 without a valid token', async () => {
    for (const [method, path] of [['GET', '/inbound'], ['POST', '/inbound'], ['GET', '/inbound/x'], ['PUT', '/inbound/x'], ['DELETE', '/inbound/x']]) {
      const res = await s.rest(method, path, { token: null, body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
    expect((await s.rest('GET', '/inbound', { token: 'mlsn.nope' })).status).toBe(401);
  });

  it('answers 403 without inbounds_full', async () => {
    const token = await tokenWith(s, ['domains_full', 'webhooks_full']);
    const d = await created();
    for (const [method, path] of [['GET', '/inbound'], ['POST', '/inbound'], ['GET', `/inbound/${d.id}`], ['PUT', `/inbound/${d.id}`], ['DELETE', `/inbound/${d.id}`]]) {
      const res = await s.rest(method, path, { token, body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
  });

  it('keeps a domain-limited token to its domain: 403 elsewhere, its own list only', async () => {
    const mine = await seedDomain(s);
    const token = await tokenWith(s, ['inbounds_full'], mine.id);
    const own = await created({ domain_id: mine.id }, token);
    const theirs = await created();
    expect((await s.rest('GET', `/inbound/${own.id}`, { token })).status).toBe(200);
    for (const [method, path] of [['GET', `/inbound/${theirs.id}`], ['PUT', `/inbound/${theirs.id}`], ['DELETE', `/inbound/${theirs.id}`], ['GET', `/inbound?domain_id=${domain.id}`]]) {
      const res = await s.rest(method, path, { token, body: method === 'PUT' ? { name: 'x' } : undefined });
      expect(res.status).toBe(403);
    }
    const create = await s.rest('POST', '/inbound', { token, body: body() });
    expect(create.status).toBe(403);
    const list = await s.rest('GET', '/inbound?limit=100', { token });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([own.id]);
  });

  it('isolates accounts: another account\'s ids are 404, its list never shows ours', async () => {
    const other = await createAccount(s, 'Inbound other');
    const otherDomain = await seedDomain(s, { token: other.token });
    const theirs = await created({ domain_id: otherDomain.id }, other.token);
    const ours = await created();
    for (const [method, path] of [['GET', `/inbound/${ours.id}`], ['PUT', `/inbound/${ours.id}`], ['DELETE', `/inbound/${ours.id}`], ['GET', `/inbound?domain_id=${domain.id}`]]) {
      const res = await s.rest(method, path, { token: other.token, body: method === 'PUT' ? { name: 'x' } : undefined });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const list = await s.rest('GET', '/inbound?limit=100', { token: other.token });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
    expect((await s.rest('GET', `/inbound/${ours.id}`)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  const FIELDS = `id name address domain { id name } domain_enabled inbound_domain priority enabled catch_type match_type
    catch_filter { type filters { comparer value key } } match_filter { type filters { comparer value key } }
    filters { type key comparer value } forwards { id type value secret } mxValues { priority target } dns_checked_at created_at updated_at`;

  it('creates, reads, lists, updates and deletes', async () => {
    const c = await s.gql(
      `mutation($d: ID!, $f: [InboundForwardInput!]) { create_inbound(domain_id: $d, name: "GQL", forwards: $f,
        catch_filter: { type: "catch_recipient", filters: [{ comparer: "equal", value: "help" }] }, domain_enabled: true, inbound_domain: "${`gql.${domain.name}`}") { ${FIELDS} } }`,
      { d: domain.id, f: [{ type: 'webhook', value: 'https://gql.example.com/in' }] },
    );
    expect(c.body.errors).toBeUndefined();
    const i = c.body.data.create_inbound;
    expect(i).toMatchObject({ name: 'GQL', inbound_domain: `gql.${domain.name}`, catch_filter: { type: 'catch_recipient' } });
    expect(i.forwards[0].secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(i.created_at).toMatch(ISO);

    const one = await s.gql(`query($id: ID!) { inbound(inbound_id: $id) { ${FIELDS} } }`, { id: i.id });
    expect(one.body.data.inbound).toEqual(i);
    const list = await s.gql(`query($d: ID) { inbounds(domain_id: $d, limit: 100) { id } }`, { d: domain.id });
    expect(list.body.data.inbounds.map((x: { id: string }) => x.id)).toContain(i.id);
    const u = await s.gql(`mutation($id: ID!) { update_inbound(inbound_id: $id, name: "GQL2") { name forwards { id secret } } }`, { id: i.id });
    expect(u.body.data.update_inbound).toEqual({ name: 'GQL2', forwards: [{ id: i.forwards[0].id, secret: i.forwards[0].secret }] });
    const del = await s.gql(`mutation($id: ID!) { delete_inbound(inbound_id: $id) }`, { id: i.id });
    expect(del.body.data.delete_inbound).toBe(true);
    const gone = await s.gql(`query($id: ID!) { inbound(inbound_id: $id) { id } }`, { id: i.id });
    expect(gone.body.errors[0]).toMatchObject({ message: 'Resource not found.', extensions: { code: 'NOT_FOUND' } });
  });

  it('answers validation, scope and account errors', async () => {
    const bad = await s.gql(`mutation($d: ID!) { create_inbound(domain_id: $d, name: "x", forwards: [{ type: "email", value: "nope" }]) { id } }`, { d: domain.id });
    expect(bad.body.errors[0]).toMatchObject({
      message: 'The given data was invalid.',
      extensions: { code: 'VALIDATION_FAILED', errors: { 'forwards.0.value': ['The forwards.0.value must be a valid email address.'] } },
    });
    const token = await tokenWith(s, ['domains_read']);
    const denied = await s.gql('query { inbounds { id } }', {}, token);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anon = await s.gql('query { inbounds { id } }', {}, null);
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const other = await createAccount(s, 'GQL other');
    const ours = await created();
    const cross = await s.gql(`query($id: ID!) { inbound(inbound_id: $id) { id } }`, { id: ours.id }, other.token);
    expect(cross.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

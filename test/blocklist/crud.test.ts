import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    env: { BLOCKLIST_IP_ZONES: 'zen.crud-bl.test', BLOCKLIST_DOMAIN_ZONES: 'dbl.crud-bl.test' },
  });
});
afterAll(async () => {
  await s?.close();
});

const MONITOR_KEYS = [
  'address', 'blocklisted', 'created_at', 'forwards', 'has_children', 'id', 'in_progress',
  'last_check', 'last_checks_count', 'name', 'next_check', 'notify', 'type', 'updated_at',
];
const INVALID = 'The given data was invalid.';
let ipSeq = 0;
/** A fresh TEST-NET-3 address per test, so the once-per-account rule never collides. */
const nextIp = () => `203.0.113.${++ipSeq}`;

const create = (body: Record<string, unknown>, token?: string) => s.rest('POST', '/blocklist-monitoring', { body, token });

function invalid(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(INVALID);
  expect(res.body.errors[field]).toEqual([message]);
}

describe('POST /v1/blocklist-monitoring', () => {
  it('creates an IP monitor: 201, in progress, no checks yet, name defaults to the address', async () => {
    const ip = nextIp();
    const res = await create({ address: ip });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...MONITOR_KEYS, 'hits'].sort());
    expect(d).toMatchObject({
      name: ip, address: ip, type: 'ip', in_progress: true, notify: false, blocklisted: false,
      last_checks_count: 0, last_check: null, next_check: null, has_children: false, forwards: [], hits: [],
    });
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
  });

  it('creates a monitor of a verified sending domain', async () => {
    const domain = await seedDomain(s);
    const res = await create({ address: domain.name.toUpperCase(), name: 'Main domain' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ address: domain.name, type: 'domain', name: 'Main domain' });
  });

  it('turns a /30 into one parent and four children', async () => {
    const res = await create({ address: '198.51.100.6/30', name: 'Pool' });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...MONITOR_KEYS, 'children', 'children_count'].sort());
    expect(d).toMatchObject({ address: '198.51.100.4', type: 'ip', has_children: true, children_count: 4 });
    expect(d.children.map((c: any) => c.address)).toEqual(['198.51.100.4', '198.51.100.5', '198.51.100.6', '198.51.100.7']);
    for (const c of d.children) {
      expect(Object.keys(c).sort()).toEqual(MONITOR_KEYS);
      expect(c).toMatchObject({ has_children: false, in_progress: true, type: 'ip', name: c.address });
    }
    // The list shows the range once, without its children.
    const list = await s.rest('GET', '/blocklist-monitoring?limit=100');
    const rows = list.body.data.filter((m: any) => m.address.startsWith('198.51.100.'));
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]).sort()).toEqual([...MONITOR_KEYS, 'children_count'].sort());
  });

  it('a /32 is one address, and an IPv6 /126 gives four children', async () => {
    const one = await create({ address: '192.0.2.77/32' });
    expect(one.body.data).toMatchObject({ address: '192.0.2.77', has_children: false });
    const v6 = await create({ address: '2001:db8::10/126' });
    expect(v6.status).toBe(201);
    expect(v6.body.data.children_count).toBe(4);
    expect(v6.body.data.children.map((c: any) => c.address)).toEqual(['2001:db8::10', '2001:db8::11', '2001:db8::12', '2001:db8::13']);
  });

  it('keeps notify_email and notify_address as forwards; a webhook forward has a secret', async () => {
    const res = await create({ address: nextIp(), notify: true, notify_email: 'ops@example.test', notify_address: 'https://hooks.example.test/bl' });
    expect(res.status).toBe(201);
    const [mail, hook] = res.body.data.forwards;
    expect(Object.keys(mail).sort()).toEqual(['id', 'type', 'value']);
    expect(mail).toMatchObject({ type: 'email', value: 'ops@example.test' });
    expect(Object.keys(hook).sort()).toEqual(['id', 'secret', 'type', 'value']);
    expect(hook).toMatchObject({ type: 'webhook', value: 'https://hooks.example.test/bl' });
    expect(hook.secret.length).toBeGreaterThanOrEqual(32);
  });

  it.each([
    [{}, 'address', 'The address field is required.'],
    [{ address: 'x'.repeat(256) }, 'address', 'The address may not be greater than 255 characters.'],
    [{ address: 'not an address' }, 'address', 'The address must be a domain name, an IP address or a CIDR block.'],
    [{ address: '10.0.0.0/23' }, 'address', 'The address must be a CIDR block from /24 to /32 for IPv4 or from /120 to /128 for IPv6.'],
    [{ address: '2001:db8::/119' }, 'address', 'The address must be a CIDR block from /24 to /32 for IPv4 or from /120 to /128 for IPv6.'],
    [{ address: '10.0.0.0/33' }, 'address', 'The address must be a CIDR block from /24 to /32 for IPv4 or from /120 to /128 for IPv6.'],
    [{ address: 'unknown-domain.example.test' }, 'address', 'The address must be a verified sending domain of the account.'],
    [{ address: '192.0.2.1', name: 'n'.repeat(256) }, 'name', 'The name may not be greater than 255 characters.'],
    [{ address: '192.0.2.1', notify: true }, 'notify_email', 'The notify email field is required when notify address is not present.'],
    [{ address: '192.0.2.1', notify: true }, 'notify_address', 'The notify address field is required when notify email is not present.'],
    [{ address: '192.0.2.1', notify_email: 'nope' }, 'notify_email', 'The notify email must be a valid email address.'],
    [{ address: '192.0.2.1', notify_address: 'ftp://x.test/' }, 'notify_address', 'The notify address format is invalid.'],
    [{ address: '192.0.2.1', notify_address: `https://x.test/${'a'.repeat(490)}` }, 'notify_address', 'The notify address may not be greater than 500 characters.'],
    [{ address: '192.0.2.1', notify: 'yes' }, 'notify', 'The notify field must be true or false.'],
  ])('422 for %j on %s', async (body, field, message) => {
    invalid(await create(body), field, message);
  });

  it('422 for a notify_email over 255 characters (which is no valid address either)', async () => {
    const long = `${'a'.repeat(64)}@${['d', 'e', 'f', 'g'].map((c) => c.repeat(61)).join('.')}.test`;
    const res = await create({ address: '192.0.2.1', notify_email: long });
    expect(res.status).toBe(422);
    expect(res.body.errors.notify_email).toContain('The notify email may not be greater than 255 characters.');
  });

  it('422 for an unverified domain and for another account\'s domain', async () => {
    const unverified = await seedDomain(s, { verified: false });
    invalid(await create({ address: unverified.name }), 'address', 'The address must be a verified sending domain of the account.');
    const other = await createAccount(s, 'Domain owner');
    const theirs = await seedDomain(s, { token: other.token });
    invalid(await create({ address: theirs.name }), 'address', 'The address must be a verified sending domain of the account.');
  });

  it('monitors an address once per account, also inside a range', async () => {
    const ip = nextIp();
    expect((await create({ address: ip })).status).toBe(201);
    invalid(await create({ address: ip }), 'address', 'The address has already been taken.');
    await create({ address: '198.18.0.0/30' });
    invalid(await create({ address: '198.18.0.2' }), 'address', 'The address has already been taken.');
    invalid(await create({ address: '198.18.0.0/31' }), 'address', 'The address has already been taken.');
    // Another account may monitor the same address.
    const other = await createAccount(s, 'Same IP');
    expect((await create({ address: ip }, other.token)).status).toBe(201);
  });
});

describe('GET /v1/blocklist-monitoring', () => {
  it('searches, sorts and pages; 422 on bad query values', async () => {
    const tag = `srch${Date.now()}`;
    await create({ address: nextIp(), name: `${tag}-b` });
    await create({ address: nextIp(), name: `${tag}-a` });
    const asc = await s.rest('GET', `/blocklist-monitoring?query=${tag}&sort_by=name&order=asc`);
    expect(asc.status).toBe(200);
    expect(asc.body.data.map((m: any) => m.name)).toEqual([`${tag}-a`, `${tag}-b`]);
    const paged = await s.rest('GET', `/blocklist-monitoring?query=${tag}&sort_by=name&order=asc&limit=1&page=2`);
    expect(paged.body.data.map((m: any) => m.name)).toEqual([`${tag}-b`]);
    const byDefault = await s.rest('GET', `/blocklist-monitoring?query=${tag}`);
    expect(byDefault.body.data.map((m: any) => m.name)).toEqual([`${tag}-a`, `${tag}-b`]);
    expect(Object.keys(byDefault.body)).toEqual(['data']);
    invalid(await s.rest('GET', '/blocklist-monitoring?limit=0'), 'limit', 'The limit must be at least 1.');
    invalid(await s.rest('GET', '/blocklist-monitoring?limit=101'), 'limit', 'The limit may not be greater than 100.');
    invalid(await s.rest('GET', '/blocklist-monitoring?sort_by=ip'), 'sort_by', 'The selected sort by is invalid.');
    invalid(await s.rest('GET', '/blocklist-monitoring?order=up'), 'order', 'The selected order is invalid.');
    invalid(await s.rest('GET', `/blocklist-monitoring?query=${'q'.repeat(256)}`), 'query', 'The query may not be greater than 255 characters.');
  });
});

describe('GET, PUT and DELETE /v1/blocklist-monitoring/{id}', () => {
  it('updates name and notify settings and keeps an unchanged forward', async () => {
    const made = (await create({ address: nextIp(), notify_email: 'a@example.test' })).body.data;
    const res = await s.rest('PUT', `/blocklist-monitoring/${made.id}`, { body: { name: 'Renamed', notify: true, notify_address: 'https://h.example.test/x' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: made.id, name: 'Renamed', notify: true, hits: [] });
    expect(res.body.data.forwards[0]).toEqual(made.forwards[0]);
    expect(res.body.data.forwards[1]).toMatchObject({ type: 'webhook', value: 'https://h.example.test/x' });
    const got = await s.rest('GET', `/blocklist-monitoring/${made.id}`);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('422 on update rules', async () => {
    const made = (await create({ address: nextIp() })).body.data;
    const put = (body: object) => s.rest('PUT', `/blocklist-monitoring/${made.id}`, { body });
    invalid(await put({ notify: true }), 'notify_email', 'The notify email field is required when notify address is not present.');
    invalid(await put({ name: 'n'.repeat(256) }), 'name', 'The name may not be greater than 255 characters.');
    invalid(await put({ notify_email: 'bad' }), 'notify_email', 'The notify email must be a valid email address.');
    invalid(await put({ notify_address: 'nope' }), 'notify_address', 'The notify address format is invalid.');
  });

  it('deleting a range removes its children; a child is read but not changed on its own', async () => {
    const range = (await create({ address: '100.64.0.0/30' })).body.data;
    const child = range.children[1];
    const read = await s.rest('GET', `/blocklist-monitoring/${child.id}`);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body.data).sort()).toEqual([...MONITOR_KEYS, 'hits'].sort());
    invalid(await s.rest('DELETE', `/blocklist-monitoring/${child.id}`), 'monitor_id', 'A monitor of an IP range is changed through the range itself.');
    const del = await s.rest('DELETE', `/blocklist-monitoring/${range.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const id of [range.id, child.id]) {
      expect((await s.rest('GET', `/blocklist-monitoring/${id}`)).status).toBe(404);
    }
    // Its addresses are free again.
    expect((await create({ address: '100.64.0.1' })).status).toBe(201);
  });

  it('404 for unknown ids and for another account\'s monitors; lists stay separate', async () => {
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const res = await s.rest(method, '/blocklist-monitoring/nope', { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Resource not found.' });
    }
    const mine = (await create({ address: nextIp() })).body.data;
    const other = await createAccount(s, 'Isolated');
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      expect((await s.rest(method, `/blocklist-monitoring/${mine.id}`, { body, token: other.token })).status).toBe(404);
    }
    const theirs = await s.rest('GET', '/blocklist-monitoring', { token: other.token });
    expect(theirs.body.data.map((m: any) => m.id)).not.toContain(mine.id);
  });
});

describe('auth', () => {
  it('401 without a token, 403 without the scope', async () => {
    expect((await s.rest('GET', '/blocklist-monitoring', { token: null })).status).toBe(401);
    const none = await tokenWith(s, ['email_full']);
    expect((await s.rest('GET', '/blocklist-monitoring', { token: none })).status).toBe(403);
    const read = await tokenWith(s, ['blocklist_monitoring_read']);
    expect((await s.rest('GET', '/blocklist-monitoring', { token: read })).status).toBe(200);
    expect((await create({ address: nextIp() }, read)).status).toBe(403);
    const made = (await create({ address: nextIp() })).body.data;
    expect((await s.rest('DELETE', `/blocklist-monitoring/${made.id}`, { token: read })).status).toBe(403);
  });

  it('a domain-limited token reaches only its own domain\'s monitor', async () => {
    const mine = await seedDomain(s);
    const token = await tokenWith(s, ['blocklist_monitoring_full'], mine.id);
    const ipMonitor = (await create({ address: nextIp() })).body.data;
    const own = await create({ address: mine.name }, token);
    expect(own.status).toBe(201);
    expect((await create({ address: nextIp() }, token)).status).toBe(403);
    expect((await s.rest('GET', `/blocklist-monitoring/${ipMonitor.id}`, { token })).status).toBe(403);
    expect((await s.rest('DELETE', `/blocklist-monitoring/${ipMonitor.id}`, { token })).status).toBe(403);
    const list = await s.rest('GET', '/blocklist-monitoring', { token });
    expect(list.body.data.map((m: any) => m.id)).toEqual([own.body.data.id]);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id name address type in_progress has_children children_count hits { blocklist_host } children { address children_count hits { address } }';

  it('creates, reads, updates and deletes the same records', async () => {
    const created = await s.gql(`mutation($a: String!) { create_blocklist_monitor(address: $a, name: "G") { ${FIELDS} } }`, { a: '192.0.2.128/30' });
    const m = created.body.data.create_blocklist_monitor;
    expect(m).toMatchObject({ name: 'G', address: '192.0.2.128', has_children: true, children_count: 4, hits: null });
    expect(m.children[0]).toEqual({ address: '192.0.2.128', children_count: null, hits: null });
    const one = await s.gql(`query($id: ID!) { blocklist_monitor(monitor_id: $id) { ${FIELDS} } }`, { id: m.id });
    expect(one.body.data.blocklist_monitor).toEqual(m);
    const list = await s.gql('query { blocklist_monitors(limit: 100) { id hits { address } children { id } } }');
    expect(list.body.data.blocklist_monitors).toContainEqual({ id: m.id, hits: null, children: null });
    const upd = await s.gql('mutation($id: ID!) { update_blocklist_monitor(monitor_id: $id, name: "H") { name } }', { id: m.id });
    expect(upd.body.data.update_blocklist_monitor.name).toBe('H');
    const del = await s.gql('mutation($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }', { id: m.id });
    expect(del.body.data.delete_blocklist_monitor).toBe(true);
  });

  it('answers validation, not-found and scope errors with their codes', async () => {
    const bad = await s.gql('mutation { create_blocklist_monitor(address: "10.0.0.0/8") { id } }');
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(bad.body.errors[0].extensions.errors).toEqual({
      address: ['The address must be a CIDR block from /24 to /32 for IPv4 or from /120 to /128 for IPv6.'],
    });
    const missing = await s.gql('query { blocklist_monitor(monitor_id: "nope") { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const read = await tokenWith(s, ['blocklist_monitoring_read']);
    const denied = await s.gql('mutation { create_blocklist_monitor(address: "192.0.2.200") { id } }', {}, read);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

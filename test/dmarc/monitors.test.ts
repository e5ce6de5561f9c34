import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const KEYS = [
  'created_at', 'dmarc_record', 'dmarc_record_checked_at', 'dmarc_valid', 'domain', 'id',
  'spf_record', 'spf_status', 'updated_at', 'wanted_dmarc_record',
];
const INVALID = 'The given data was invalid.';
const create = (domain_id: unknown, token?: string) => s.rest('POST', '/dmarc-monitoring', { body: { domain_id }, token });
const update = (id: string, wanted_dmarc_record: unknown, token?: string) =>
  s.rest('PUT', `/dmarc-monitoring/${id}`, { body: { wanted_dmarc_record }, token });

function invalid(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(INVALID);
  expect(res.body.errors[field]).toEqual([message]);
}

async function monitored(token?: string) {
  const domain = await seedDomain(s, { token });
  const res = await create(domain.id, token);
  expect(res.status).toBe(201);
  return { domain, monitor: res.body.data };
}

describe('POST /v1/dmarc-monitoring', () => {
  it('creates a monitor and looks up the published DMARC and SPF records at once', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=reject; rua=mailto:r@x.test' });
    s.dns.add(domain.name, { type: 'TXT', data: 'some-verification=abc' });
    s.dns.add(domain.name, { type: 'TXT', data: 'v=spf1 include:_spf.x.test -all' });
    const res = await create(domain.id);
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toMatchObject({
      dmarc_record: 'v=DMARC1; p=reject; rua=mailto:r@x.test',
      wanted_dmarc_record: expect.stringMatching(/^v=DMARC1; p=none; rua=mailto:dmarc\+[a-z0-9]{16}@inbound\.postbox\.local$/),
      dmarc_valid: true,
      spf_record: 'v=spf1 include:_spf.x.test -all',
      spf_status: 'valid',
    });
    expect(Object.keys(d.domain).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });
    for (const t of [d.created_at, d.updated_at, d.dmarc_record_checked_at, d.domain.created_at]) expect(t).toMatch(ISO);
  });

  it('records absent as empty / not_found', async () => {
    const { monitor } = await monitored();
    expect(monitor).toMatchObject({ dmarc_record: '', dmarc_valid: false, spf_record: null, spf_status: 'not_found' });
    expect(monitor.dmarc_record_checked_at).toMatch(ISO);
  });

  it('shows a malformed DMARC record as invalid, and an SPF record that does not parse as invalid', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=maybe' });
    s.dns.add(domain.name, { type: 'TXT', data: 'v=spf1 include: ?? -all' });
    const d = (await create(domain.id)).body.data;
    expect(d).toMatchObject({ dmarc_record: 'v=DMARC1; p=maybe', dmarc_valid: false, spf_status: 'invalid', spf_record: 'v=spf1 include: ?? -all' });
  });

  it('two DMARC or two SPF records: never valid, SPF status multiple', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=none' });
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=reject' });
    s.dns.add(domain.name, { type: 'TXT', data: 'v=spf1 -all' });
    s.dns.add(domain.name, { type: 'TXT', data: 'v=spf1 ~all' });
    const d = (await create(domain.id)).body.data;
    expect(d.dmarc_valid).toBe(false);
    expect(d.dmarc_record.split('\n').sort()).toEqual(['v=DMARC1; p=none', 'v=DMARC1; p=reject']);
    expect(d.spf_status).toBe('multiple');
  });

  it('422 on domain_id: missing, unknown, unverified, already monitored', async () => {
    invalid(await s.rest('POST', '/dmarc-monitoring', { body: {} }), 'domain_id', 'The domain id field is required.');
    invalid(await create('nope'), 'domain_id', 'The selected domain id is invalid.');
    const unverified = await seedDomain(s, { verified: false });
    invalid(await create(unverified.id), 'domain_id', 'The domain must be verified before it can be monitored.');
    const { domain } = await monitored();
    invalid(await create(domain.id), 'domain_id', 'The domain is already monitored.');
  });
});

describe('GET /v1/dmarc-monitoring', () => {
  it('lists with search, sort and limit; 422 on bad query', async () => {
    const a = await monitored();
    const b = await monitored();
    const list = await s.rest('GET', '/dmarc-monitoring?limit=100');
    expect(list.status).toBe(200);
    const ids = list.body.data.map((m: any) => m.id);
    expect(ids.indexOf(b.monitor.id)).toBeLessThan(ids.indexOf(a.monitor.id));
    const asc = await s.rest('GET', '/dmarc-monitoring?limit=100&sort_by=created_at&order=asc');
    const ascIds = asc.body.data.map((m: any) => m.id);
    expect(ascIds.indexOf(a.monitor.id)).toBeLessThan(ascIds.indexOf(b.monitor.id));
    const found = await s.rest('GET', `/dmarc-monitoring?query=${a.domain.name.slice(0, 9)}`);
    expect(found.body.data.map((m: any) => m.id)).toEqual([a.monitor.id]);
    expect((await s.rest('GET', '/dmarc-monitoring?limit=1')).body.data).toHaveLength(1);
    expect((await s.rest('GET', '/dmarc-monitoring?sort_by=spf_status')).status).toBe(200);
    invalid(await s.rest('GET', '/dmarc-monitoring?limit=101'), 'limit', 'The limit may not be greater than 100.');
    invalid(await s.rest('GET', '/dmarc-monitoring?limit=0'), 'limit', 'The limit must be at least 1.');
    invalid(await s.rest('GET', '/dmarc-monitoring?page=0'), 'page', 'The page must be at least 1.');
    invalid(await s.rest('GET', '/dmarc-monitoring?sort_by=name'), 'sort_by', 'The selected sort by is invalid.');
    invalid(await s.rest('GET', '/dmarc-monitoring?order=up'), 'order', 'The selected order is invalid.');
    invalid(await s.rest('GET', `/dmarc-monitoring?query=${'q'.repeat(256)}`), 'query', 'The query may not be greater than 255 characters.');
  });
});

describe('PUT /v1/dmarc-monitoring/{monitor_id}', () => {
  it('sets the wanted record', async () => {
    const { monitor } = await monitored();
    const wanted = 'v=DMARC1; p=quarantine; pct=50; rua=mailto:dmarc@example.com';
    const res = await update(monitor.id, wanted);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(KEYS);
    expect(res.body.data).toMatchObject({ id: monitor.id, wanted_dmarc_record: wanted });
  });

  it('422 on every wanted_dmarc_record rule, naming the problem', async () => {
    const { monitor } = await monitored();
    const field = 'wanted_dmarc_record';
    const prefix = 'The wanted dmarc record is not a valid DMARC record: ';
    invalid(await s.rest('PUT', `/dmarc-monitoring/${monitor.id}`, { body: {} }), field, 'The wanted dmarc record field is required.');
    invalid(await update(monitor.id, '   '), field, 'The wanted dmarc record field is required.');
    invalid(await update(monitor.id, 'v=DMARC1; p=none; rua=mailto:a@b.test' + 'x'.repeat(1000)), field, 'The wanted dmarc record may not be greater than 1000 characters.');
    const cases: [string, string][] = [
      ['p=none', 'it must start with v=DMARC1;.'],
      ['v=DMARC1;', 'the p tag (none, quarantine or reject) is required.'],
      ['v=DMARC1; p=block', 'p must be none, quarantine or reject.'],
      ['v=DMARC1; p=none; sp=x', 'sp must be none, quarantine or reject.'],
      ['v=DMARC1; p=none; pct=200', 'pct must be an integer from 0 to 100.'],
      ['v=DMARC1; p=none; adkim=q', 'adkim must be r or s.'],
      ['v=DMARC1; p=none; aspf=q', 'aspf must be r or s.'],
      ['v=DMARC1; p=none; fo=x', 'fo must be one or more of 0, 1, d, s separated by colons.'],
      ['v=DMARC1; p=none; ri=soon', 'ri must be a whole number of seconds.'],
      ['v=DMARC1; p=none; rua=r@x.test', 'each rua entry must be a mailto: URI (optionally followed by !size), got "r@x.test".'],
      ['v=DMARC1; p=none; ruf=mailto:nobody', 'ruf contains an invalid email address "nobody".'],
      ['v=DMARC1; p=none; foo=1', 'unknown tag "foo".'],
      ['v=DMARC1; p=none; p=reject', 'the p tag appears more than once.'],
    ];
    for (const [record, problem] of cases) invalid(await update(monitor.id, record), field, prefix + problem);
  });

  it('404 when unknown', async () => {
    const res = await update('nope', 'v=DMARC1; p=none');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('DELETE /v1/dmarc-monitoring/{monitor_id}', () => {
  it('204, then 404; the domain can be monitored again', async () => {
    const { domain, monitor } = await monitored();
    const res = await s.rest('DELETE', `/dmarc-monitoring/${monitor.id}`);
    expect(res.status).toBe(204);
    const again = await s.rest('DELETE', `/dmarc-monitoring/${monitor.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Resource not found.' });
    expect((await create(domain.id)).status).toBe(201);
  });
});

describe('cron re-check', () => {
  it('picks up a changed record', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=none' });
    const first = (await create(domain.id)).body.data;
    expect(first).toMatchObject({ dmarc_valid: true, spf_status: 'not_found' });
    s.dns.remove(`_dmarc.${domain.name}`);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=nothing' });
    s.dns.add(domain.name, { type: 'TXT', data: 'v=spf1 mx -all' });
    await s.app.services.boss.send('dmarc.recheck', {});
    const deadline = Date.now() + 10_000;
    let m: any;
    for (;;) {
      const list = await s.rest('GET', '/dmarc-monitoring?limit=100');
      m = list.body.data.find((x: any) => x.id === first.id);
      if (m.dmarc_record_checked_at !== first.dmarc_record_checked_at || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(m).toMatchObject({ dmarc_record: 'v=DMARC1; p=nothing', dmarc_valid: false, spf_record: 'v=spf1 mx -all', spf_status: 'valid' });
    expect(new Date(m.dmarc_record_checked_at).getTime()).toBeGreaterThan(new Date(first.dmarc_record_checked_at).getTime());
  });
});

describe('auth and isolation', () => {
  it('401 without a token, 403 without the scope', async () => {
    expect((await s.rest('GET', '/dmarc-monitoring', { token: null })).status).toBe(401);
    const none = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', '/dmarc-monitoring', { token: none })).status).toBe(403);
    const read = await tokenWith(s, ['dmarc_monitoring_read']);
    expect((await s.rest('GET', '/dmarc-monitoring', { token: read })).status).toBe(200);
    const domain = await seedDomain(s);
    expect((await create(domain.id, read)).status).toBe(403);
    const { monitor } = await monitored();
    expect((await update(monitor.id, 'v=DMARC1; p=none', read)).status).toBe(403);
    expect((await s.rest('DELETE', `/dmarc-monitoring/${monitor.id}`, { token: read })).status).toBe(403);
  });

  it('a domain-limited token reaches only its own domain', async () => {
    const own = await monitored();
    const other = await monitored();
    const token = await tokenWith(s, ['dmarc_monitoring_full'], own.domain.id);
    const list = await s.rest('GET', '/dmarc-monitoring?limit=100', { token });
    expect(list.body.data.map((m: any) => m.id)).toEqual([own.monitor.id]);
    expect((await update(own.monitor.id, 'v=DMARC1; p=reject', token)).status).toBe(200);
    expect((await update(other.monitor.id, 'v=DMARC1; p=reject', token)).status).toBe(403);
    expect((await s.rest('DELETE', `/dmarc-monitoring/${other.monitor.id}`, { token })).status).toBe(403);
    const fresh = await seedDomain(s);
    expect((await create(fresh.id, token)).status).toBe(403);
  });

  it("another account's monitors and domains are out of reach", async () => {
    const other = await createAccount(s);
    const theirs = await monitored(other.token);
    const mine = await monitored();
    invalid(await create(theirs.domain.id), 'domain_id', 'The selected domain id is invalid.');
    expect((await update(theirs.monitor.id, 'v=DMARC1; p=none')).status).toBe(404);
    expect((await s.rest('DELETE', `/dmarc-monitoring/${theirs.monitor.id}`)).status).toBe(404);
    const theirList = await s.rest('GET', '/dmarc-monitoring?limit=100', { token: other.token });
    expect(theirList.body.data.map((m: any) => m.id)).toEqual([theirs.monitor.id]);
    const myList = await s.rest('GET', '/dmarc-monitoring?limit=100');
    expect(myList.body.data.map((m: any) => m.id)).toContain(mine.monitor.id);
    expect(myList.body.data.map((m: any) => m.id)).not.toContain(theirs.monitor.id);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id dmarc_record wanted_dmarc_record dmarc_valid dmarc_record_checked_at spf_record spf_status created_at updated_at domain { id name }';

  it('creates, lists, updates and deletes', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=quarantine' });
    const created = await s.gql(`mutation($d: ID!) { create_dmarc_monitor(domain_id: $d) { ${FIELDS} } }`, { d: domain.id });
    const m = created.body.data.create_dmarc_monitor;
    expect(m).toMatchObject({ dmarc_record: 'v=DMARC1; p=quarantine', dmarc_valid: true, spf_status: 'not_found', domain: { id: domain.id, name: domain.name } });
    const list = await s.gql(`query { dmarc_monitors(limit: 100) { ${FIELDS} } }`);
    expect(list.body.data.dmarc_monitors).toContainEqual(m);
    const upd = await s.gql('mutation($id: ID!) { update_dmarc_monitor(monitor_id: $id, wanted_dmarc_record: "v=DMARC1; p=reject") { wanted_dmarc_record } }', { id: m.id });
    expect(upd.body.data.update_dmarc_monitor.wanted_dmarc_record).toBe('v=DMARC1; p=reject');
    const del = await s.gql('mutation($id: ID!) { delete_dmarc_monitor(monitor_id: $id) }', { id: m.id });
    expect(del.body.data.delete_dmarc_monitor).toBe(true);
  });

  it('answers validation, not-found and scope errors with their codes', async () => {
    const { monitor } = await monitored();
    const bad = await s.gql('mutation($id: ID!) { update_dmarc_monitor(monitor_id: $id, wanted_dmarc_record: "v=DMARC1; p=no") { id } }', { id: monitor.id });
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(bad.body.errors[0].extensions.errors).toEqual({
      wanted_dmarc_record: ['The wanted dmarc record is not a valid DMARC record: p must be none, quarantine or reject.'],
    });
    const missing = await s.gql('mutation { delete_dmarc_monitor(monitor_id: "nope") }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const read = await tokenWith(s, ['dmarc_monitoring_read']);
    const denied = await s.gql(`mutation { delete_dmarc_monitor(monitor_id: "${monitor.id}") }`, {}, read);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

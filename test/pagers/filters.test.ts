import { accountIdOf, seedDomain, seedRecipient } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { assignNumberTo } from '../support/sms.js';
import { address, emailRef, emailsOf, record, send, sql, waitFor } from '../email-log/helpers.js';
import { monitoredDomain, reportXml, upload } from '../dmarc/reports-support.js';

/**
 * The filter audit: every query parameter SPEC.md names on a list narrows or
 * orders that list through /v1; an unknown parameter is ignored (200, same rows); an invalid
 * value of a named one is a 422 `{message, errors}` naming it. Each row seeds, in an account of
 * its own, rows that differ in the filtered property, so every expected set is exact.
 */
let s: TestServer;
let r: Receiver;
const TEST_SECRET = 'filters-test-secret';
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TEST_SECRET: TEST_SECRET } });
  r = await startReceiver();
  r.secretFor('*', TEST_SECRET);
}, 60_000);
afterAll(async () => {
  await r?.close();
  await s?.close();
});

interface Seeded {
  /** The list, with what every request of it carries (a required parameter, a date range). */
  path: string;
  token?: string;
  /** The rows with no filter, in the list's default order. */
  all: string[];
  /** query → the rows it leaves, in the list's order. */
  filters: [string, string[]][];
  /** query → the rows in that order. */
  sorts?: [string, string[]][];
  /** Filters naming an id the account does not have: 404, like that id in a path. */
  notFound?: string[];
  /** query → the field keys of its 422. */
  invalid: [string, string[]][];
  /** Row identity (`id` unless said). */
  key?: (row: any) => string;
}

const ok = (res: { status: number; text: string }, status = 201) => {
  if (res.status !== status) throw new Error(`${res.status} ${res.text}`);
  return res as any;
};
const LIMIT = ['limit=5', ['limit']] as [string, string[]];
const hour = 3600;
const now = () => Math.floor(Date.now() / 1000);

async function account(name: string) {
  const a = await createAccount(s, `Filters ${name}`);
  return { token: a.token, accountId: await accountIdOf(s, a.token) };
}

const rows: [string, () => Promise<Seeded>][] = [
  ['GET /v1/token', async () => {
    const { token } = await account('tokens');
    const t = ok(await s.rest('POST', '/token', { token, body: { name: 'second', scopes: ['domains_read'] } }), 200).body.data.id;
    const all = (await s.rest('GET', '/token', { token })).body.data.map((x: any) => x.id);
    expect(all).toContain(t);
    return { path: '/token', token, all, filters: [['limit=10&page=2', []]], invalid: [LIMIT, ['page=0', ['page']]] };
  }],

  ['GET /v1/blocklist-monitoring: query, sort_by, order', async () => {
    const { token } = await account('monitors');
    const a = ok(await s.rest('POST', '/blocklist-monitoring', { token, body: { address: '198.51.100.9', name: 'alpha' } })).body.data.id;
    const b = ok(await s.rest('POST', '/blocklist-monitoring', { token, body: { address: '192.0.2.1', name: 'beta' } })).body.data.id;
    // A listing, written straight once the first checks are done (test/blocklist runs the checks).
    const checked = async (id: string) => !(await s.rest('GET', `/blocklist-monitoring/${id}`, { token })).body.data.in_progress;
    await waitFor('the first checks', async () => (await checked(a)) && (await checked(b)), 20_000);
    await sql(s, 'update blocklist_monitors set blocklisted = true where id = ?', [a]);
    return {
      path: '/blocklist-monitoring', token, all: [b, a],
      filters: [['query=ALPH', [a]], ['query=192.0', [b]]],
      sorts: [
        ['sort_by=name&order=asc', [a, b]], ['sort_by=name&order=desc', [b, a]],
        ['sort_by=address&order=asc', [b, a]], ['sort_by=blocklisted&order=desc', [a, b]], ['sort_by=blocklisted&order=asc', [b, a]], ['sort_by=created_at&order=asc', [a, b]], ['order=asc', [a, b]],
      ],
      invalid: [['sort_by=size', ['sort_by']], ['order=up', ['order']], [`query=${'q'.repeat(256)}`, ['query']], ['limit=0', ['limit']]],
    };
  }],

  ['GET /v1/identities: domain_id, query, order_by, order', async () => {
    const { token } = await account('identities');
    const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
    const a = ok(await s.rest('POST', '/identities', { token, body: { domain_id: d1.id, email: `zed@${d1.name}`, name: 'Zed' } })).body.data.id;
    const b = ok(await s.rest('POST', '/identities', { token, body: { domain_id: d2.id, email: `amy@${d2.name}`, name: 'Amy' } })).body.data.id;
    await sql(s, "update sender_identities set verified_at = now() - interval '1 day' where id = ?", [a]);
    return {
      path: '/identities', token, all: [b, a],
      filters: [[`domain_id=${d1.id}`, [a]], [`domain_id=${d2.id}`, [b]], ['query=AMY', [b]]],
      sorts: [['order_by=email&order=asc', [b, a]], ['order_by=email&order=desc', [a, b]], ['order_by=created_at&order=asc', [a, b]],
        ['order_by=verified_at&order=asc', [a, b]], ['order_by=verified_at&order=desc', [a, b]]],
      invalid: [['order_by=name', ['order_by']], ['order=up', ['order']], LIMIT], notFound: ['domain_id=nope'],
    };
  }],

  ['GET /v1/recipients: domain_id', async () => {
    const { token } = await account('recipients');
    const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
    const a = (await seedRecipient(s, d1.id, 'one@example.org')).id;
    const b = (await seedRecipient(s, d2.id, 'two@example.org')).id;
    return { path: '/recipients', token, all: [b, a], filters: [[`domain_id=${d1.id}`, [a]], [`domain_id=${d2.id}`, [b]]], invalid: [LIMIT], notFound: ['domain_id=nope'] };
  }],

  ...(['blocklist', 'hard-bounces', 'spam-complaints', 'unsubscribes', 'on-hold-list'] as const).map(
    (list): [string, () => Promise<Seeded>] => [`GET /v1/suppressions/${list}: domain_id`, async () => {
      const { token } = await account(list);
      const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
      const add = async (domain_id: string, email: string) =>
        ok(await s.rest('POST', `/suppressions/${list}`, { token, body: { domain_id, recipients: [email] } })).body.data[0].id;
      const a = await add(d1.id, 'one@example.org');
      const b = await add(d2.id, 'two@example.org');
      const filters: Seeded['filters'] = [[`domain_id=${d1.id}`, [a]], [`domain_id=${d2.id}`, [b]]];
      const common = { path: `/suppressions/${list}`, token, filters, invalid: [LIMIT], notFound: ['domain_id=nope'] };
      if (list !== 'blocklist') return { ...common, all: [b, a] };
      // An account-wide entry is in the whole list, not in a domain's.
      const c = ok(await s.rest('POST', '/suppressions/blocklist', { token, body: { recipients: ['three@example.org'] } })).body.data[0].id;
      return { ...common, all: [c, b, a] };
    }],
  ),

  ['GET /v1/sms-inbounds: sms_number_id, enabled', async () => {
    const { token, accountId } = await account('sms inbounds');
    const [n1, n2] = [await assignNumberTo(s, accountId), await assignNumberTo(s, accountId)];
    const make = async (n: { id: string }, name: string, enabled: boolean) =>
      ok(await s.rest('POST', '/sms-inbounds', { token, body: { sms_number_id: n.id, name, forward_url: `https://hooks.example.com/${name}`, enabled } })).body.data.id;
    const a = await make(n1, 'a', true);
    const b = await make(n2, 'b', false);
    return {
      path: '/sms-inbounds', token, all: [b, a],
      filters: [[`sms_number_id=${n1.id}`, [a]], [`sms_number_id=${n2.id}`, [b]], ['enabled=true', [a]], ['enabled=false', [b]], [`sms_number_id=${n1.id}&enabled=false`, []]],
      invalid: [['enabled=maybe', ['enabled']], LIMIT], notFound: ['sms_number_id=nope'],
    };
  }],

  ['GET /v1/domains/{domain_id}/smtp-users', async () => {
    const { token } = await account('smtp users');
    const d = await seedDomain(s, { token });
    const a = ok(await s.rest('POST', `/domains/${d.id}/smtp-users`, { token, body: { name: 'a' } })).body.data.id;
    const all = (await s.rest('GET', `/domains/${d.id}/smtp-users`, { token })).body.data.map((x: any) => x.id);
    expect(all).toEqual([a]);
    return { path: `/domains/${d.id}/smtp-users`, token, all, filters: [['limit=10&page=2', []]], invalid: [LIMIT] };
  }],

  ['GET /v1/domains: verified', async () => {
    const { token, accountId } = await account('domains');
    const a = (await seedDomain(s, { accountId, verified: true })).id;
    const b = (await seedDomain(s, { accountId, verified: false })).id;
    return {
      path: '/domains', token, all: [b, a],
      filters: [['verified=true', [a]], ['verified=false', [b]], ['verified=1', [a]], ['verified=0', [b]]],
      invalid: [['verified=maybe', ['verified']], LIMIT],
    };
  }],

  ['GET /v1/domains/{domain_id}/recipients', async () => {
    const { token } = await account('domain recipients');
    const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
    const a = (await seedRecipient(s, d1.id, 'one@example.org')).id;
    await seedRecipient(s, d2.id, 'two@example.org');
    return { path: `/domains/${d1.id}/recipients`, token, all: [a], filters: [['limit=10&page=2', []]], invalid: [LIMIT] };
  }],

  ['GET /v1/users', async () => {
    const { token } = await account('users');
    const all = (await s.rest('GET', '/users', { token })).body.data.map((x: any) => x.id);
    return { path: '/users', token, all, filters: [['limit=10&page=2', []]], invalid: [LIMIT] };
  }],

  ['GET /v1/templates: domain_id', async () => {
    const { token } = await account('templates');
    const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
    const make = async (d: { id: string }, name: string) =>
      ok(await s.rest('POST', '/templates', { token, body: { name, html: '<p>x</p>', text: 'x', domain_id: d.id } })).body.data.id;
    const a = await make(d1, 'a');
    const b = await make(d2, 'b');
    return { path: '/templates', token, all: [b, a], filters: [[`domain_id=${d1.id}`, [a]], [`domain_id=${d2.id}`, [b]]], invalid: [LIMIT, ['page=0', ['page']]], notFound: ['domain_id=nope'] };
  }],

  ['GET /v1/email-verification', async () => {
    const { token } = await account('verification lists');
    const all = (await s.rest('GET', '/email-verification', { token })).body.data.map((x: any) => x.id);
    return { path: '/email-verification', token, all, filters: [['limit=10&page=2', []]], invalid: [LIMIT, ['page=0', ['page']]] };
  }],

  ['GET /v1/activity/{domain_id}: event[], date_from, date_to', async () => {
    const { token } = await account('activity');
    const d = await seedDomain(s, { token, dkim: true });
    const msg = await send(s, d, { token, to: [address('act')] });
    const [email] = await emailsOf(s, msg, 'delivered', token);
    const ref = await emailRef(s, email.id);
    const t = now();
    const [opened] = await record(s, [{ email: ref, type: 'opened', at: new Date((t - 2 * hour) * 1000) }]);
    const [clicked] = await record(s, [{ email: ref, type: 'clicked', at: new Date((t - hour) * 1000) }]);
    const range = `date_from=${t - 3 * hour}&date_to=${t + 60}`;
    const all = (await s.rest('GET', `/activity/${d.id}?${range}&limit=100`, { token })).body.data.map((x: any) => x.id);
    expect(all).toEqual(expect.arrayContaining([opened, clicked]));
    return {
      path: `/activity/${d.id}?${range}`, token, all,
      filters: [
        ['event[]=opened', [opened]], ['event[]=clicked', [clicked]], ['event[]=clicked&event[]=opened', [clicked, opened]],
        // How the mailersend SDK (qs) writes an array.
        ['event[0]=opened&event[1]=clicked', [clicked, opened]],
        [`date_from=${t - 3 * hour}&date_to=${t - 90 * 60}`, [opened]],
      ],
      invalid: [['event[]=bounced', ['event.0']], ['date_from=yesterday', ['date_from']], ['page=1001', ['page']], LIMIT],
    };
  }],

  ['GET /v1/sms-numbers: paused', async () => {
    const { token, accountId } = await account('sms numbers');
    const a = (await assignNumberTo(s, accountId)).id;
    const b = (await assignNumberTo(s, accountId)).id;
    ok(await s.rest('PUT', `/sms-numbers/${a}`, { token, body: { paused: true } }), 200);
    const all = (await s.rest('GET', '/sms-numbers', { token })).body.data.map((x: any) => x.id);
    expect([...all].sort()).toEqual([a, b].sort());
    return { path: '/sms-numbers', token, all, filters: [['paused=true', [a]], ['paused=false', [b]]], invalid: [['paused=maybe', ['paused']], LIMIT] };
  }],

  ['GET /v1/sms-webhooks: sms_number_id', async () => {
    const { token, accountId } = await account('sms webhooks');
    const [n1, n2] = [await assignNumberTo(s, accountId), await assignNumberTo(s, accountId)];
    const make = async (n: { id: string }, name: string) =>
      ok(await s.rest('POST', '/sms-webhooks', { token, body: { url: r.url(`/sms-${name}`), name, events: ['sms.sent'], sms_number_id: n.id } })).body.data.id;
    const a = await make(n1, 'a');
    const b = await make(n2, 'b');
    return {
      path: `/sms-webhooks?sms_number_id=${n1.id}`, token, all: [a],
      filters: [[`sms_number_id=${n2.id}`, [b]]],
      invalid: [['sms_number_id=', ['sms_number_id']], LIMIT], notFound: ['sms_number_id=nope'],
    };
  }],

  ['GET /v1/webhooks: domain_id', async () => {
    const { token } = await account('webhooks');
    const [d1, d2] = [await seedDomain(s, { token }), await seedDomain(s, { token })];
    const make = async (d: { id: string }, name: string) =>
      ok(await s.rest('POST', '/webhooks', { token, body: { url: r.url(`/email-${name}`), name, events: ['activity.sent'], domain_id: d.id } })).body.data.id;
    const a = await make(d1, 'a');
    const b = await make(d2, 'b');
    return {
      path: `/webhooks?domain_id=${d1.id}`, token, all: [a],
      filters: [[`domain_id=${d2.id}`, [b]]],
      invalid: [['domain_id=', ['domain_id']], LIMIT], notFound: ['domain_id=nope'],
    };
  }],

  ['GET /v1/dmarc-monitoring: query, sort_by, order', async () => {
    const { token } = await account('dmarc monitors');
    const d1 = await seedDomain(s, { token, name: `aaa${Date.now()}.example.test` });
    const d2 = await seedDomain(s, { token, name: `zzz${Date.now()}.example.test` });
    // The second has a valid DMARC record and an SPF record; the first has neither.
    s.dns.add(`_dmarc.${d2.name}`, { type: 'TXT', data: 'v=DMARC1; p=none' });
    s.dns.add(d2.name, { type: 'TXT', data: 'v=spf1 -all' });
    const a = ok(await s.rest('POST', '/dmarc-monitoring', { token, body: { domain_id: d1.id } })).body.data;
    const b = ok(await s.rest('POST', '/dmarc-monitoring', { token, body: { domain_id: d2.id } })).body.data;
    expect([a.dmarc_valid, b.dmarc_valid]).toEqual([false, true]);
    expect(a.spf_status).not.toBe(b.spf_status);
    const spfAsc = a.spf_status < b.spf_status ? [a.id, b.id] : [b.id, a.id];
    return {
      path: '/dmarc-monitoring', token, all: [b.id, a.id],
      filters: [[`query=${d1.name.slice(0, 6).toUpperCase()}`, [a.id]], ['query=zzz', [b.id]]],
      sorts: [
        ['sort_by=created_at&order=asc', [a.id, b.id]], ['sort_by=dmarc_valid&order=desc', [b.id, a.id]],
        ['sort_by=dmarc_valid&order=asc', [a.id, b.id]], ['sort_by=spf_status&order=asc', spfAsc],
        ['sort_by=spf_status&order=desc', [...spfAsc].reverse()],
      ],
      invalid: [['sort_by=name', ['sort_by']], ['order=up', ['order']], [`query=${'q'.repeat(256)}`, ['query']], ['limit=0', ['limit']]],
    };
  }],

  ['GET /v1/dmarc-monitoring/{id}/report: date_from, date_to, search, category, report_source', async () => {
    const { token } = await account('dmarc report');
    const { monitor, domain } = await monitoredDomain(s, token);
    ok(await upload(s, monitor.id, reportXml('google', domain.name), token)); // 2026-11-01
    ok(await upload(s, monitor.id, reportXml('outlook', domain.name), token)); // 2026-11-02
    return {
      path: `/dmarc-monitoring/${monitor.id}/report`, token, key: (x) => x.ip_address,
      all: ['192.0.2.10', '198.51.100.7', '8.8.4.4', '2001:db8::25'],
      filters: [
        ['report_source=google.com', ['198.51.100.7', '192.0.2.10', '2001:db8::25']],
        ['date_from=2026-11-02', ['8.8.4.4', '192.0.2.10']], ['date_to=2026-11-01', ['198.51.100.7', '192.0.2.10', '2001:db8::25']],
        ['search=8.8.4', ['8.8.4.4']], ['category=non_compliant', ['198.51.100.7', '8.8.4.4']],
      ],
      invalid: [['category=spam', ['category']], [`search=${'x'.repeat(256)}`, ['search']], [`report_source=${'y'.repeat(256)}`, ['report_source']], ['date_from=someday', ['date_from']]],
    };
  }],

  ['GET /v1/dmarc-monitoring/{id}/report/{ip}: the same query', async () => {
    const { token } = await account('dmarc ip report');
    const { monitor, domain } = await monitoredDomain(s, token);
    ok(await upload(s, monitor.id, reportXml('google', domain.name), token));
    ok(await upload(s, monitor.id, reportXml('outlook', domain.name), token));
    const path = `/dmarc-monitoring/${monitor.id}/report/192.0.2.10`;
    const all = (await s.rest('GET', path, { token })).body.data.map((x: any) => x.id);
    const sources = (await s.rest('GET', path, { token })).body.data.map((x: any) => x.report_source);
    expect(sources).toEqual(['Outlook.com', 'google.com', 'google.com']);
    return {
      path, token, all,
      filters: [
        ['report_source=google.com', all.slice(1)], ['date_from=2026-11-02', all.slice(0, 1)], ['date_to=2026-11-01', all.slice(1)],
        ['search=192.0.2', all], ['search=203.0.113', []], ['category=compliant', all], ['category=non_compliant', []],
      ],
      invalid: [['category=spam', ['category']], [`search=${'x'.repeat(256)}`, ['search']], ['date_from=2026-11-03&date_to=2026-11-01', ['date_to']]],
    };
  }],

  ['GET /v1/dmarc-monitoring/{id}/report-sources: status', async () => {
    const { token } = await account('dmarc sources');
    const { monitor, domain } = await monitoredDomain(s, token);
    ok(await upload(s, monitor.id, reportXml('google', domain.name), token));
    ok(await upload(s, monitor.id, reportXml('outlook', domain.name), token));
    return {
      path: `/dmarc-monitoring/${monitor.id}/report-sources?date_from=2026-11-01&date_to=2026-11-03`, token, key: (x) => x.report_source,
      all: ['google.com', 'Outlook.com'],
      filters: [['status=rejected', ['Outlook.com']], ['status=quarantined', ['google.com']], ['date_from=2026-11-02', ['Outlook.com']]],
      invalid: [['status=bounced', ['status']]],
    };
  }],

  ['GET /v1/emails: status, recipient, subject, tag, message_id, domain_id, date_from, date_to', async () => {
    const { token } = await account('emails');
    const [d1, d2] = [await seedDomain(s, { token, dkim: true }), await seedDomain(s, { token, dkim: true })];
    const [to1, to2] = [address('em'), address('em')];
    const m1 = await send(s, d1, { token, to: [to1], subject: 'Alpha invoice', tags: ['alpha'] });
    // Scheduled an hour ahead: it stays queued while the first is delivered.
    const m2 = await send(s, d2, { token, to: [to2], subject: 'Beta welcome', tags: ['beta'], send_at: now() + hour });
    const [a] = await emailsOf(s, m1, 'delivered', token);
    const [b] = (await s.rest('GET', `/emails?message_id=${m2}`, { token })).body.data;
    // A template and an open, written straight: templates and tracking have tests of their own.
    await sql(s, 'update messages set template_id = ? where id = ?', ['tpl-filters', m2]);
    await sql(s, 'update emails set opened_at = now() where id = ?', [a.id]);
    return {
      path: '/emails', token, all: [b.id, a.id],
      filters: [
        ['status=delivered', [a.id]], ['status[]=scheduled', [b.id]], ['status[0]=scheduled&status[1]=delivered', [b.id, a.id]], [`recipient=${to1.toUpperCase()}`, [a.id]], [`recipient_email=${to2}`, [b.id]],
        ['subject=INVOICE', [a.id]], ['tag=beta', [b.id]], [`message_id=${m1}`, [a.id]], [`domain_id=${d2.id}`, [b.id]],
        [`date_to=${now() - hour}`, []], ['template=tpl-filters', [b.id]], ['template_id=tpl-filters', [b.id]],
        ['interaction=opened', [a.id]], ['interaction[]=no_interaction', [b.id]], [`date_from=${now() - hour}`, [b.id, a.id]],
      ],
      notFound: ['domain_id=nope'],
      invalid: [['status=lost', ['status.0']], ['interaction=liked', ['interaction.0']], ['date_from=yesterday', ['date_from']], LIMIT],
    };
  }],
];

const seeded = new Map<string, Seeded>();
/** The list with `query`; a parameter in both replaces the path's (a required one, a date range). */
const get = async (x: Seeded, query: string) => {
  const [path, fixed = ''] = x.path.split('?');
  const q = new URLSearchParams(query);
  const kept = [...new URLSearchParams(fixed)].filter(([k]) => !q.has(k));
  const all = new URLSearchParams([...kept, ...q]).toString();
  return s.rest('GET', `${path}${all ? `?${all}` : ''}`, { token: x.token });
};
const keysOf = (x: Seeded, body: any) => body.data.map(x.key ?? ((row: any) => row.id));

// Every row seeds at once (each in its own account), so the file takes about as long as its slowest row.
const pending = new Map<string, Promise<Seeded>>();
beforeAll(() => {
  for (const [name, seed] of rows) {
    const p = seed();
    p.catch(() => undefined); // reported by the row's own beforeAll
    pending.set(name, p);
  }
});

describe.each(rows)('%s', (name) => {
  beforeAll(async () => {
    seeded.set(name, await pending.get(name)!);
  }, 60_000);

  it('each named filter narrows the list, each sort orders it', async () => {
    const x = seeded.get(name)!;
    const base = await get(x, '');
    expect(base.status).toBe(200);
    expect(keysOf(x, base.body)).toEqual(x.all);
    for (const [query, want] of [...x.filters, ...(x.sorts ?? [])]) {
      const res = await get(x, query);
      expect({ query, status: res.status, rows: res.status === 200 ? keysOf(x, res.body) : res.body }).toEqual({ query, status: 200, rows: want });
      const { meta, links } = res.body;
      // A pager counts what the filter leaves, and its links keep the filter (a client follows them).
      if (meta?.total !== undefined && !/page=/.test(query)) expect({ query, total: meta.total }).toEqual({ query, total: want.length });
      if (links) for (const [k, v] of new URLSearchParams(query)) if (k !== 'page') expect(new URL(links.first).searchParams.getAll(k)).toContain(v);
    }
  });

  it('ignores an unknown parameter', async () => {
    const x = seeded.get(name)!;
    const [query, want] = x.filters[0];
    const res = await get(x, `${query}&no_such_filter=1&sort=sideways`);
    expect(res.status).toBe(200);
    expect(keysOf(x, res.body)).toEqual(want);
  });

  it('takes an empty value of an optional parameter as the parameter left out', async () => {
    const x = seeded.get(name)!;
    const fixed = new URLSearchParams(x.path.split('?')[1] ?? '');
    const named = new Set([...x.filters, ...(x.sorts ?? [])].flatMap(([q]) => [...new URLSearchParams(q).keys()]));
    // Required parameters (in the path's query) stay required; `a[]=` is a list with an empty item.
    const optional = [...named, 'page', 'limit'].filter((k) => !fixed.has(k) && !k.includes('['));
    for (const k of optional) {
      const res = await get(x, `${k}=`);
      expect({ k, status: res.status, rows: res.status === 200 ? keysOf(x, res.body) : res.body }).toEqual({ k, status: 200, rows: x.all });
    }
  });

  it('answers 404 for an id filter naming nothing of the account', async () => {
    const x = seeded.get(name)!;
    for (const query of x.notFound ?? []) expect({ query, status: (await get(x, query)).status }).toEqual({ query, status: 404 });
  });

  it('answers 422 with {message, errors} naming an invalid value', async () => {
    const x = seeded.get(name)!;
    for (const [query, fields] of x.invalid) {
      const res = await get(x, query);
      expect({ query, status: res.status, fields: Object.keys(res.body?.errors ?? {}).sort() }).toEqual({ query, status: 422, fields: [...fields].sort() });
      expect(typeof res.body.message).toBe('string');
      for (const f of fields) expect(res.body.errors[f]).toEqual([expect.any(String)]);
    }
  });
});

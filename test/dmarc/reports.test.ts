import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { until } from '../sending/helpers.js';
import { gz, monitoredDomain, reportXml, upload, zip } from './reports-support.js';

/**
 * Aggregate reports uploaded through /v1 and read back. The expected figures are worked out by
 * hand from test/fixtures/dmarc (google.xml covers 2026-11-01, outlook.xml 2026-11-02):
 *
 *   IP            google.com                     Outlook.com          total  DMARC  SPF    DKIM
 *   192.0.2.10    2 pass/pass + 2 pass/softfail  2 pass/pass          6      6      4      6
 *   198.51.100.7  5 fail/fail (quarantine)       -                    5      0      0      0
 *   8.8.4.4       -                              4 fail/fail (reject) 4      0      0      0
 *   2001:db8::25  3 spf-aligned (forwarded)      -                    3      3      3      0
 */
let s: TestServer;
let monitor: { id: string };
let domain: { id: string; name: string };

const report = (query = '', id = monitor.id) => s.rest('GET', `/dmarc-monitoring/${id}/report${query}`);
const ipsOf = (res: { body: any }) => res.body.data.map((r: any) => r.ip_address);

beforeAll(async () => {
  s = await startTestServer();
  ({ monitor, domain } = await monitoredDomain(s));
  s.dns.add('10.2.0.192.in-addr.arpa', { type: 'PTR', domain: 'mail.sender.test' });
  // One as XML text, one gzipped in base64.
  const a = await upload(s, monitor.id, reportXml('google', domain.name));
  expect(a.status).toBe(201);
  const b = await upload(s, monitor.id, gz(reportXml('outlook', domain.name)));
  expect(b.status).toBe(201);
}, 60_000);
afterAll(() => s?.close());

describe('POST /v1/dmarc-monitoring/{id}/reports', () => {
  it('stores a report and answers what it stored; the same report again is a duplicate that adds nothing', async () => {
    const { monitor: m, domain: d } = await monitoredDomain(s);
    const xml = reportXml('google', d.name);
    const res = await upload(s, m.id, xml);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      report_source: 'google.com',
      report_id: '10525435579337670012',
      domain: d.name,
      date_from: '2026-11-01T00:00:00.000000Z',
      date_to: '2026-11-01T23:59:59.000000Z',
      records: 4,
      total_volume: 12,
      duplicate: false,
      created_at: expect.stringMatching(ISO),
    });
    const again = await upload(s, m.id, zip({ 'google.com!x!1793491200!1793577599.xml': xml }));
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ id: res.body.data.id, duplicate: true });
    const rows = await report('', m.id);
    expect(rows.body.data.find((r: any) => r.ip_address === '192.0.2.10').total_volume).toBe(4);
  });

  it('takes zip archives and gzip, told apart by content', async () => {
    const { monitor: m, domain: d } = await monitoredDomain(s);
    expect((await upload(s, m.id, zip({ 'report.xml': reportXml('google', d.name) }))).body.data.records).toBe(4);
    expect((await upload(s, m.id, gz(reportXml('outlook', d.name)))).body.data.records).toBe(2);
    expect(ipsOf(await report('', m.id))).toHaveLength(4);
  });

  it.each([
    ['not a report at all', Buffer.from('hello world'), /well-formed|no <feedback>/],
    ['an XML document that is no report', '<?xml version="1.0"?><html><body/></html>', /no <feedback> element/],
    ['a report without report_id', '<feedback><report_metadata><org_name>x</org_name><date_range><begin>1</begin><end>2</end></date_range></report_metadata><policy_published><domain>DOMAIN</domain></policy_published></feedback>', /report_id/],
    ['a record with a bad IP', (d: string) => reportXml('google', d).replace('198.51.100.7', '198.51.100.777'), /invalid source_ip "198.51.100.777"/],
    ['a negative count', (d: string) => reportXml('google', d).replace('<count>5</count>', '<count>-5</count>'), /not a whole number/],
    ['a DTD (entity expansion)', '<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY a "aaaa">]><feedback>&a;</feedback>', /declares a DTD/],
    ['a zip of two files', (d: string) => zip({ 'a.xml': reportXml('google', d), 'b.xml': reportXml('outlook', d) }), /more than one XML file/],
    ['damaged gzip', Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]), /gzip data is damaged/],
    ['another domain\'s report', reportXml('google', 'someone-else.example'), /about someone-else\.example, not /],
    ['text that is not base64', 'not base64 at all!', /base64/],
  ])('refuses %s with 422 on report and stores nothing', async (_what, input, message) => {
    const { monitor: m, domain: d } = await monitoredDomain(s);
    const body = typeof input === 'function' ? input(d.name) : typeof input === 'string' ? input.replace('DOMAIN', d.name) : input;
    const res = await upload(s, m.id, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['report']);
    expect(res.body.errors.report[0]).toMatch(message);
    expect((await report('', m.id)).body.data).toEqual([]);
  });

  it('is 404 for another account\'s monitor and needs dmarc_monitoring_full', async () => {
    const other = await createAccount(s);
    expect((await upload(s, monitor.id, reportXml('google', domain.name), other.token)).status).toBe(404);
    const readOnly = await tokenWith(s, ['dmarc_monitoring_read']);
    expect((await upload(s, monitor.id, reportXml('google', domain.name), readOnly)).status).toBe(403);
  });
});

describe('GET /v1/dmarc-monitoring/{id}/report', () => {
  it('aggregates per source IP with the percentages worked out by hand, largest volume first', async () => {
    const res = await report();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { ip_address: '192.0.2.10', total_volume: 6, passed_dmarc: '100%', passed_spf: '66.67%', passed_dkim: '100%', domain: domain.name, country: null, country_code: null, city: null },
      { ip_address: '198.51.100.7', total_volume: 5, passed_dmarc: '0%', passed_spf: '0%', passed_dkim: '0%', domain: domain.name, country: null, country_code: null, city: null },
      { ip_address: '8.8.4.4', total_volume: 4, passed_dmarc: '0%', passed_spf: '0%', passed_dkim: '0%', domain: domain.name, country: 'United States', country_code: 'US', city: null },
      { ip_address: '2001:db8::25', total_volume: 3, passed_dmarc: '100%', passed_spf: '100%', passed_dkim: '0%', domain: domain.name, country: null, country_code: null, city: null },
    ]);
  });

  it('pages with page and limit (1..100)', async () => {
    expect(ipsOf(await report('?limit=1&page=2'))).toEqual(['198.51.100.7']);
    expect(ipsOf(await report('?limit=2&page=3'))).toEqual([]);
    for (const q of ['?limit=0', '?limit=101', '?page=0']) expect((await report(q)).status).toBe(422);
  });

  it('filters by the period of the reports: a bare day as date_to reaches through its end', async () => {
    expect(ipsOf(await report('?date_from=2026-11-02'))).toEqual(['8.8.4.4', '192.0.2.10']);
    expect(ipsOf(await report('?date_from=2026-10-01&date_to=2026-11-01'))).toEqual(['198.51.100.7', '192.0.2.10', '2001:db8::25']);
    expect(ipsOf(await report('?date_from=2026-11-01 12:00:00&date_to=1793664000'))).toEqual(['8.8.4.4', '192.0.2.10']);
    const ten = (await report('?date_from=2026-11-01&date_to=2026-11-01 23:59:59')).body.data[0];
    expect(ten).toMatchObject({ ip_address: '198.51.100.7' });
  });

  it('applies the date rules: after date_from, not in the future, a real date', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    const cases: [string, string, RegExp][] = [
      [`?date_to=${future}`, 'date_to', /not be in the future/],
      ['?date_from=2026-11-02&date_to=2026-11-01', 'date_to', /after date from/],
      ['?date_from=2026-11-02&date_to=2026-11-02', 'date_to', /after date from/],
      ['?date_from=2026-02-30', 'date_from', /must be a date/],
      ['?date_from=yesterday', 'date_from', /must be a date/],
    ];
    for (const [q, field, message] of cases) {
      const res = await report(q);
      expect(res.status).toBe(422);
      expect(res.body.errors[field][0]).toMatch(message);
    }
  });

  it('filters by reporting organisation (any case), search and category', async () => {
    expect(ipsOf(await report('?report_source=outlook.com'))).toEqual(['8.8.4.4', '192.0.2.10']);
    expect(ipsOf(await report('?report_source=nobody.example'))).toEqual([]);
    expect(ipsOf(await report('?search=198.51'))).toEqual(['198.51.100.7']);
    expect(ipsOf(await report('?search=2001:db8'))).toEqual(['2001:db8::25']);
    expect(ipsOf(await report('?category=compliant'))).toEqual(['192.0.2.10', '2001:db8::25']);
    expect(ipsOf(await report('?category=non_compliant'))).toEqual(['198.51.100.7', '8.8.4.4']);
    // The search looks at reverse DNS names once they are looked up.
    await until(async () => (await report('?search=sender.test')).body.data.length === 1, 10_000, 'the PTR lookup');
    expect(ipsOf(await report('?search=sender.test'))).toEqual(['192.0.2.10']);
    const bad = await report(`?category=spam&search=${'x'.repeat(256)}&report_source=${'y'.repeat(256)}`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['category', 'report_source', 'search']);
  });

  it('is 404 for an unknown or foreign monitor, 403 without a dmarc scope', async () => {
    expect((await report('', 'unknownmonitor01')).status).toBe(404);
    const other = await createAccount(s);
    expect((await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report`, { token: other.token })).status).toBe(404);
    const noScope = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report`, { token: noScope })).status).toBe(403);
    const readOnly = await tokenWith(s, ['dmarc_monitoring_read']);
    expect((await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report`, { token: readOnly })).status).toBe(200);
  });
});

describe('favorites', () => {
  const fav = (method: 'PUT' | 'DELETE', ip: string, id = monitor.id) => s.rest(method, `/dmarc-monitoring/${id}/favorite/${ip}`);

  it('PUT marks an IP (200 {}), which then leads the report with is_favorite; DELETE unmarks it (204)', async () => {
    const put = await fav('PUT', '8.8.4.4');
    expect(put.status).toBe(200);
    expect(put.body).toEqual({});
    expect((await fav('PUT', '8.8.4.4')).status).toBe(200);
    const rows = (await report()).body.data;
    expect(rows[0]).toMatchObject({ ip_address: '8.8.4.4', is_favorite: true });
    for (const r of rows.slice(1)) expect(r).not.toHaveProperty('is_favorite');
    expect(ipsOf(await report('?category=favorites'))).toEqual(['8.8.4.4']);
    // An IPv6 source written another way is the same source.
    expect((await fav('PUT', '2001:DB8:0::25')).status).toBe(200);
    expect(ipsOf(await report('?category=favorites'))).toEqual(['8.8.4.4', '2001:db8::25']);

    expect((await fav('DELETE', '8.8.4.4')).status).toBe(204);
    expect((await fav('DELETE', '2001:db8::25')).status).toBe(204);
    expect((await fav('DELETE', '8.8.4.4')).status).toBe(404);
    expect((await report()).body.data.every((r: any) => !('is_favorite' in r))).toBe(true);
  });

  it('is 404 for an IP the monitor has no report of, or an unknown monitor', async () => {
    expect((await fav('PUT', '203.0.113.200')).status).toBe(404);
    expect((await fav('PUT', 'not-an-ip')).status).toBe(404);
    expect((await fav('PUT', '8.8.4.4', 'unknownmonitor01')).status).toBe(404);
    expect((await fav('DELETE', '8.8.4.4', 'unknownmonitor01')).status).toBe(404);
  });
});

describe('GET /v1/dmarc-monitoring/{id}/report/{ip}', () => {
  it('lists the records of one IP, newest report first, with the auth results', async () => {
    await until(async () => (await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/192.0.2.10`)).body.data[0]?.ip_domain !== '', 10_000, 'the PTR lookup');
    const res = await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/192.0.2.10`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.report_source, r.total_volume, r.passed_spf])).toEqual([
      ['Outlook.com', 2, '100%'],
      ['google.com', 2, '100%'],
      ['google.com', 2, '0%'],
    ]);
    const [first] = res.body.data;
    expect(Object.keys(first).sort()).toEqual([
      'aligned_dkim', 'aligned_spf', 'applied_policy', 'city', 'country', 'country_code', 'created_at', 'dkim_auth', 'dkim_domain',
      'domain', 'id', 'ip_address', 'ip_domain', 'override_comment', 'override_reason', 'passed_dkim', 'passed_dmarc', 'passed_spf',
      'report_source', 'spf_auth', 'spf_domain', 'total_volume',
    ]);
    expect(first).toMatchObject({
      ip_address: '192.0.2.10',
      ip_domain: 'mail.sender.test',
      passed_dmarc: '100%',
      passed_dkim: '100%',
      aligned_spf: true,
      aligned_dkim: true,
      applied_policy: 'none',
      override_reason: null,
      override_comment: null,
      domain: domain.name,
      spf_domain: `mta.${domain.name}`,
      dkim_domain: domain.name,
      country: null,
      country_code: null,
      city: null,
      spf_auth: [{ type: 'spf', result: 'pass', domain: `mta.${domain.name}`, selector: null }],
      dkim_auth: [{ type: 'dkim', result: 'pass', domain: domain.name, selector: 'pb1' }],
    });
    expect(first.created_at).toMatch(ISO);
    expect(res.body.data[2]).toMatchObject({ aligned_spf: false, passed_dmarc: '100%', spf_auth: [{ result: 'softfail' }] });
  });

  it('shows the override reason, the policy applied, and IPv6 written any way', async () => {
    const [row] = (await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/2001:DB8::0:25`)).body.data;
    expect(row).toMatchObject({
      ip_address: '2001:db8::25',
      applied_policy: 'none',
      override_reason: 'forwarded',
      override_comment: 'via a mailing list',
      aligned_spf: true,
      aligned_dkim: false,
      dkim_domain: null,
      dkim_auth: [],
      passed_dmarc: '100%',
    });
    const [spoof] = (await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/198.51.100.7`)).body.data;
    expect(spoof).toMatchObject({ applied_policy: 'quarantine', passed_dmarc: '0%', ip_domain: '' });
  });

  it('takes the same query: period, source, paging; an IP never seen has no rows', async () => {
    const rows = (q: string) => s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/192.0.2.10${q}`);
    expect((await rows('?report_source=google.com')).body.data).toHaveLength(2);
    expect((await rows('?date_from=2026-11-02')).body.data.map((r: any) => r.report_source)).toEqual(['Outlook.com']);
    expect((await rows('?limit=1&page=3')).body.data).toHaveLength(1);
    expect((await rows('?date_to=2026-01-01&date_from=2026-02-01')).status).toBe(422);
    expect((await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/203.0.113.1`)).body.data).toEqual([]);
    expect((await s.rest('GET', `/dmarc-monitoring/unknownmonitor01/report/192.0.2.10`)).status).toBe(404);
  });
});

describe('GET /v1/dmarc-monitoring/{id}/report-sources', () => {
  const sources = (q: string) => s.rest('GET', `/dmarc-monitoring/${monitor.id}/report-sources${q}`);

  it('counts the reports of each organisation in the period, filtered by what the receiver did', async () => {
    const all = await sources('?date_from=2026-11-01&date_to=2026-11-03');
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { report_source: 'google.com', reports: 1 },
      { report_source: 'Outlook.com', reports: 1 },
    ]);
    expect((await sources('?date_from=2026-11-01&date_to=2026-11-03&status=rejected')).body.data).toEqual([{ report_source: 'Outlook.com', reports: 1 }]);
    expect((await sources('?date_from=2026-11-01&date_to=2026-11-03&status=quarantined')).body.data).toEqual([{ report_source: 'google.com', reports: 1 }]);
    expect((await sources('?date_from=2026-11-01&date_to=2026-11-03&status=accepted')).body.data).toHaveLength(2);
    expect((await sources('?date_from=2026-11-02&date_to=2026-11-03')).body.data).toEqual([{ report_source: 'Outlook.com', reports: 1 }]);
  });

  it('needs both dates, in order, not in the future, and a known status', async () => {
    const missing = await sources('');
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['date_from', 'date_to']);
    expect((await sources('?date_from=2026-11-03&date_to=2026-11-01')).status).toBe(422);
    expect((await sources(`?date_from=2026-11-01&date_to=${Math.floor(Date.now() / 1000) + 600}`)).status).toBe(422);
    const status = await sources('?date_from=2026-11-01&date_to=2026-11-03&status=bounced');
    expect(status.status).toBe(422);
    expect(Object.keys(status.body.errors)).toEqual(['status']);
    expect((await s.rest('GET', '/dmarc-monitoring/unknownmonitor01/report-sources?date_from=2026-11-01&date_to=2026-11-03')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('shows the report address, which the default wanted record names in rua, and the same reads', async () => {
    const res = await s.gql(
      `query($id: ID!) {
        dmarc_monitors(limit: 100) { id report_address wanted_dmarc_record }
        dmarc_report(monitor_id: $id, limit: 1) { ip_address total_volume passed_spf is_favorite }
        dmarc_report_sources(monitor_id: $id, date_from: "2026-11-01", date_to: "2026-11-03") { report_source reports }
      }`,
      { id: monitor.id },
    );
    expect(res.body.errors).toBeUndefined();
    const m = res.body.data.dmarc_monitors.find((x: any) => x.id === monitor.id);
    expect(m.report_address).toMatch(/^dmarc\+[a-z0-9]{16}@inbound\.postbox\.local$/);
    expect(m.wanted_dmarc_record).toBe(`v=DMARC1; p=none; rua=mailto:${m.report_address}`);
    expect(res.body.data.dmarc_report).toEqual([{ ip_address: '192.0.2.10', total_volume: 6, passed_spf: '66.67%', is_favorite: null }]);
    expect(res.body.data.dmarc_report_sources).toHaveLength(2);
  });

  it('deleting the monitor deletes its reports', async () => {
    const { monitor: m, domain: d } = await monitoredDomain(s);
    await upload(s, m.id, reportXml('google', d.name));
    expect((await s.rest('DELETE', `/dmarc-monitoring/${m.id}`)).status).toBe(204);
    const [{ n }] = await s.app.services.orm.em.fork().execute('select count(*)::int as n from dmarc_report_rows where monitor_id = ?', [m.id]);
    expect(n).toBe(0);
  });
});

import { parseConfig } from '../../src/config/index.js';
import { asksToSlowDown, SiteTable } from '../../src/lib/shaping.js';
import { DeliverySiteRepository } from '../../src/modules/mail/delivery-site.repository.js';
import { seedDomain } from '../support/factories.js';
import { startMxProvider, type MxProvider } from '../support/mx-provider.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sql, until } from '../sending/helpers.js';

/**
 * Traffic shaping per destination site with MAIL_TRANSPORT=mx (lib/shaping.ts,
 * modules/mail/site-shaper.ts), against local providers on one port: `paced.test` on 127.0.0.2,
 * a site limited to 60 messages a minute by DELIVERY_SHAPING; `fast.test` on 127.0.0.3, a site
 * with no rate; and `busy.test` on 127.0.0.4, a provider that answers 421 4.7.28 once it took
 * `allow` messages, as Gmail does past the rate it accepts. Two workers share the database.
 */
let s: TestServer;
let second: TestServer;
let paced: MxProvider;
let fast: MxProvider;
let busy: MxProvider;

beforeAll(async () => {
  paced = await startMxProvider('127.0.0.2');
  const port = paced.port;
  fast = await startMxProvider('127.0.0.3', port);
  busy = await startMxProvider('127.0.0.4', port);
  const env = {
    MAIL_TRANSPORT: 'mx',
    MX_PORT: String(port),
    MX_ALLOW_PRIVATE: 'true',
    DELIVERY_TIMEOUT_MS: '3000',
    DELIVERY_RETRY_DELAY_SECONDS: '1',
    DELIVERY_SLOWDOWN_SECONDS: '6',
    DELIVERY_SHAPING: JSON.stringify({ paced: { mx: ['*.paced.test'], per_minute: 60 }, busy: { mx: ['*.busy.test'] } }),
  };
  s = await startTestServer({ env });
  second = await startTestServer({ env, roles: ['worker'], database: { url: s.dbUrl, drop: async () => undefined } });
  for (const server of [s, second]) {
    for (const [name, address] of [['mx.paced.test', '127.0.0.2'], ['mx.fast.test', '127.0.0.3'], ['mx.busy.test', '127.0.0.4']]) {
      server.dns.add(name, { type: 'A', address });
    }
    for (const [domain, mx] of [['paced.test', 'mx.paced.test'], ['fast.test', 'mx.fast.test'], ['one.busy-customer.test', 'mx.busy.test'], ['two.busy-customer.test', 'mx.busy.test']]) {
      server.dns.add(domain, { type: 'MX', exchange: mx, priority: 10 });
    }
  }
}, 60_000);
afterAll(async () => {
  await second?.close();
  await s?.close();
  await Promise.all([paced, fast, busy].map((p) => p?.close()));
});

async function sendAll(to: string[]): Promise<string[]> {
  const domain = await seedDomain(s, { dkim: true });
  const ids: string[] = [];
  for (const address of to) {
    const res = await s.rest('POST', '/email', { body: { from: { email: `hi@${domain.name}` }, to: [{ email: address }], subject: 'Paced', text: 'x' } });
    expect(res.status).toBe(202);
    ids.push(res.headers.get('x-message-id')!);
  }
  return ids;
}

const emailsOf = (ids: string[]) =>
  sql<{ status: string; attempts: number }>(s, 'select status, attempts from emails where message_id = any(?) order by id', [`{${ids.join(',')}}`]);

describe('sites', () => {
  it('are found from the MX answer: a provider\'s hosts are one site, other hosts their own', () => {
    const table = new SiteTable({ gmail: { per_minute: 10 }, corp: { mx: ['mx.corp.example'], connections: 2 } });
    expect(table.siteOf(['alt1.aspmx.l.google.com', 'aspmx.l.google.com'])).toMatchObject({ name: 'gmail', limits: { per_minute: 10, connections: 5 } });
    expect(table.siteOf(['gmail-smtp-in.l.google.com.'])).toMatchObject({ name: 'gmail' });
    expect(table.siteOf(['example-com.mail.protection.outlook.com'])).toMatchObject({ name: 'microsoft' });
    expect(table.siteOf(['mta5.am0.yahoodns.net'])).toMatchObject({ name: 'yahoo' });
    expect(table.siteOf(['mx01.mail.icloud.com'])).toMatchObject({ name: 'apple' });
    expect(table.siteOf(['mx.corp.example'])).toMatchObject({ name: 'corp', limits: { connections: 2, per_minute: null } });
    // Domains served by the same hosts share a site; the order of the answer does not matter.
    expect(table.siteOf(['b.mx.example', 'a.mx.example']).name).toBe(table.siteOf(['a.mx.example', 'b.mx.example']).name);
    expect(table.siteOf(['notgoogle.com']).name).toBe('notgoogle.com');
    expect(() => new SiteTable({ newsite: { per_minute: 5 } })).toThrow(/needs its "mx" patterns/);
  });

  it('slow down on 421 and the providers\' rate codes, not on a mailbox that is full or a refusal', () => {
    expect(asksToSlowDown('421 4.7.0 Try again later, closing connection. (EHLO) gsmtp')).toBe(true);
    expect(asksToSlowDown('450 4.7.28 Our system has detected an unusual rate of unsolicited mail')).toBe(true);
    expect(asksToSlowDown('451 4.7.650 The mail server has been temporarily rate limited due to IP reputation.')).toBe(true);
    expect(asksToSlowDown('421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred')).toBe(true);
    expect(asksToSlowDown('450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages')).toBe(false);
    expect(asksToSlowDown('451 4.3.0 Temporary server error')).toBe(false);
    expect(asksToSlowDown('550 5.7.28 rate limited')).toBe(false);
  });

  it('refuse a DELIVERY_SHAPING that is not JSON or out of bounds, with the setting named', () => {
    expect(() => parseConfig({ DELIVERY_SHAPING: '{gmail:' })).toThrow(/DELIVERY_SHAPING/);
    expect(() => parseConfig({ DELIVERY_SHAPING: '{"gmail":{"per_minute":0}}' })).toThrow(/DELIVERY_SHAPING/);
    expect(() => parseConfig({ DELIVERY_SHAPING: '{"newsite":{"per_minute":5}}' })).toThrow(/DELIVERY_SHAPING: the new site newsite needs its "mx" patterns/);
    expect(parseConfig({ DELIVERY_SHAPING: '{"gmail":{"per_minute":5}}' }).DELIVERY_SHAPING).toEqual({ gmail: { per_minute: 5 } });
  });
});

it('a site limited to 60 a minute gets its mail a second apart, from both workers, while another site takes its own at once', async () => {
  const slow = await sendAll(['a@paced.test', 'b@paced.test', 'c@paced.test', 'd@paced.test', 'e@paced.test']);
  const quick = await sendAll(['a@fast.test', 'b@fast.test', 'c@fast.test', 'd@fast.test', 'e@fast.test']);
  await until(async () => fast.taken.length >= 5, 10_000, 'the fast site took its five');
  await until(async () => paced.taken.length >= 5, 30_000, 'the paced site took its five');
  // The permits are a second apart by the database's clock; arrivals here differ from them by a
  // send's time (the first one opens the connection), so the gaps are a second give or take that.
  const gaps = paced.taken.slice(1).map((t, i) => t - paced.taken[i]);
  for (const gap of gaps) expect(gap).toBeGreaterThan(500);
  expect(paced.taken[4] - paced.taken[0]).toBeGreaterThan(3500);
  expect(fast.taken[4] - fast.taken[0]).toBeLessThan(2000);
  // Waiting for the pace is not an attempt: one each, no deferral.
  await until(async () => (await emailsOf([...slow, ...quick])).every((e) => e.status === 'delivered'), 10_000, 'all delivered');
  expect((await emailsOf(slow)).map((e) => e.attempts)).toEqual([1, 1, 1, 1, 1]);
  const deferred = await sql(s, `select 1 from activities a join emails e on e.id = a.email_id where e.message_id = any(?) and a.type = 'deferred'`, [`{${slow.join(',')}}`]);
  expect(deferred).toEqual([]);
  // Both workers run in this process, on its one registry of metrics.
  expect(sampleOf(await scrapeMetrics(s), 'postbox_delivery_site_held_total{site="paced",why="rate"}')).toBeGreaterThan(0);
}, 60_000);

it('a 421 slows the whole site for every worker, across its domains, then it recovers', async () => {
  busy.allow = 2;
  const first = await sendAll(['a@one.busy-customer.test', 'b@one.busy-customer.test', 'c@two.busy-customer.test', 'd@two.busy-customer.test']);
  const row = await until(async () => (await sql<{ slow_level: number; suspended: boolean }>(s, `select slow_level, suspended_until > now() as suspended from delivery_sites where site = 'busy'`))[0], 20_000, 'the site suspended');
  expect(row).toEqual({ slow_level: 1, suspended: true });
  await until(async () => (await emailsOf(first)).filter((e) => e.status === 'deferred').length >= 1, 10_000, 'the refused email deferred');
  const suspendedAt = Date.now();
  // Past both workers' reads of the suspension (every two seconds), new mail to either domain is held by whichever takes it.
  await new Promise((r) => setTimeout(r, 2500));
  const triesBefore = busy.tries;
  const later = await sendAll(['e@two.busy-customer.test', 'f@one.busy-customer.test']);
  await new Promise((r) => setTimeout(r, 1500));
  expect(busy.tries).toBe(triesBefore);
  expect((await emailsOf(later)).map((e) => e.status)).toEqual(['queued', 'queued']);

  // The provider takes mail again; once the suspension ends, everything goes, the deferred email by its retry.
  busy.allow = Infinity;
  await until(async () => (await emailsOf([...first, ...later])).every((e) => e.status === 'delivered'), 30_000, 'all delivered after the suspension');
  expect(busy.taken[busy.taken.length - 1] - suspendedAt).toBeGreaterThan(2000);
  expect(sampleOf(await scrapeMetrics(s), 'postbox_delivery_site_slowdowns_total{site="busy"}')).toBe(1);
}, 60_000);

it("a site's shared row is deleted once it has been idle a day, and a site in use keeps its own", async () => {
  await sql(s, `insert into delivery_sites (site, source, minute_at, slow_level, slowed_at, suspended_until) values
    ('idle.example', '', now() - interval '3 days', 0, null, null),
    ('forgiven.example', '', null, 2, now() - interval '2 days', now() - interval '2 days'),
    ('unforgiven.example', '', null, 6, now() - interval '26 hours', now() - interval '26 hours')`);
  // One level is forgiven every ten minutes: six take an hour, so a site slowed 26 hours ago is idle; 200 take 33 hours.
  await new DeliverySiteRepository(s.app.services.orm.em.fork()).forgetIdle(600);
  const left = await sql<{ site: string }>(s, `select site from delivery_sites where site like '%.example' or site in ('paced', 'busy') order by site`);
  expect(left.map((r) => r.site)).toEqual(['busy', 'paced']);
  await sql(s, `insert into delivery_sites (site, source, slow_level, slowed_at) values ('slow.example', '', 200, now() - interval '25 hours')`);
  await new DeliverySiteRepository(s.app.services.orm.em.fork()).forgetIdle(600);
  expect(await sql(s, `select site from delivery_sites where site = 'slow.example'`)).toEqual([{ site: 'slow.example' }]);
});

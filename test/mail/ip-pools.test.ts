import { parseConfig } from '../../src/config/index.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startMxProvider, type MxProvider } from '../support/mx-provider.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { sql, until } from '../sending/helpers.js';

/**
 * Source address pools with MAIL_TRANSPORT=mx (lib/ip-pools.ts, modules/mail/source-addresses.ts,
 * modules/ip-pools): local addresses 127.0.0.5 to 127.0.0.8 in pools, given to accounts and
 * domains by the operator; the provider on 127.0.0.2 notes each message's client address and
 * EHLO name. 127.0.0.5 and .6 have reverse DNS; .5's configured EHLO name is its PTR name, .7's
 * is not; .8 is new and warms up at 2 messages on its first day.
 */
let s: TestServer;
let mx: MxProvider;
const POOLS = {
  default: [{ address: '127.0.0.5', ehlo: 'mta5.pool.test', warmed: true }],
  blue: [{ address: '127.0.0.6', warmed: true }, { address: '127.0.0.7', ehlo: 'wrong.pool.test', warmed: true }],
  fresh: [{ address: '127.0.0.8', ehlo: 'mta8.pool.test' }],
};

beforeAll(async () => {
  mx = await startMxProvider('127.0.0.2');
  s = await startTestServer({
    env: {
      MAIL_TRANSPORT: 'mx',
      MX_PORT: String(mx.port),
      MX_ALLOW_PRIVATE: 'true',
      DELIVERY_TIMEOUT_MS: '3000',
      IP_POOLS: JSON.stringify(POOLS),
      IP_WARMUP_SCHEDULE: '2,10',
    },
  });
  s.dns.add('mx.provider.test', { type: 'A', address: '127.0.0.2' });
  s.dns.add('provider.test', { type: 'MX', exchange: 'mx.provider.test', priority: 10 });
  s.dns.add('5.0.0.127.in-addr.arpa', { type: 'PTR', domain: 'mta5.pool.test' });
  s.dns.add('6.0.0.127.in-addr.arpa', { type: 'PTR', domain: 'mta6.pool.test' });
  s.dns.add('7.0.0.127.in-addr.arpa', { type: 'PTR', domain: 'mta7.pool.test' });
  s.dns.add('8.0.0.127.in-addr.arpa', { type: 'PTR', domain: 'mta8.pool.test' });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await mx?.close();
});

const op = (query: string, variables: Record<string, unknown> = {}) => s.gql(query, variables, OPERATOR_TOKEN);
const SET = 'mutation($a: ID!, $d: ID, $p: String) { operator_set_ip_pool(account_id: $a, domain_id: $d, pool: $p) { account_id domain_id pool } }';

async function send(domain: { name: string }, count = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await s.rest('POST', '/email', { body: { from: { email: `hi@${domain.name}` }, to: [{ email: `r${i}@provider.test` }], subject: 'Pool', text: 'x' } });
    expect(res.status).toBe(202);
    ids.push(res.headers.get('x-message-id')!);
  }
  return ids;
}

/** The senders of the next `count` messages the provider takes. */
async function nextSenders(count: number, work: () => Promise<unknown>) {
  const from = mx.senders.length;
  await work();
  await until(async () => mx.senders.length >= from + count, 15_000, `${count} message(s) at the provider`);
  return mx.senders.slice(from, from + count);
}

it('mail leaves from the pool `default`, with its address\'s EHLO name, when no pool is given', async () => {
  const domain = await seedDomain(s, { dkim: true });
  expect(await nextSenders(1, () => send(domain))).toEqual([{ address: '127.0.0.5', ehlo: 'mta5.pool.test' }]);
});

it("an account's pool, and a domain's over it; the addresses take turns, each with its reverse DNS name or its own", async () => {
  const account = await accountIdOf(s);
  const domain = await seedDomain(s, { dkim: true });
  const other = await seedDomain(s, { dkim: true });
  expect((await op(SET, { a: account, p: 'blue' })).body.data.operator_set_ip_pool).toEqual({ account_id: account, domain_id: null, pool: 'blue' });
  const senders = await nextSenders(2, () => send(domain, 2));
  expect(senders.map((x) => x.address).sort()).toEqual(['127.0.0.6', '127.0.0.7']);
  // .6 has no EHLO name of its own: its PTR name. .7's own name is given, though its PTR differs.
  expect(senders.find((x) => x.address === '127.0.0.6')!.ehlo).toBe('mta6.pool.test');
  expect(senders.find((x) => x.address === '127.0.0.7')!.ehlo).toBe('wrong.pool.test');

  await op(SET, { a: account, d: other.id, p: 'default' });
  expect((await nextSenders(1, () => send(other)))[0].address).toBe('127.0.0.5');
  // Taken back: the account's own again.
  await op(SET, { a: account, d: other.id, p: null });
  expect(['127.0.0.6', '127.0.0.7']).toContain((await nextSenders(1, () => send(other)))[0].address);
  await op(SET, { a: account, p: null });
});

it('a new address sends its day\'s warm-up cap, and the rest of its pool\'s mail waits for the next UTC day', async () => {
  const account = await accountIdOf(s);
  const domain = await seedDomain(s, { dkim: true });
  await op(SET, { a: account, d: domain.id, p: 'fresh' });
  const ids = await send(domain, 4);
  await until(async () => mx.senders.filter((x) => x.address === '127.0.0.8').length >= 2, 15_000, 'two from the new address');
  await new Promise((r) => setTimeout(r, 1500));
  expect(mx.senders.filter((x) => x.address === '127.0.0.8')).toHaveLength(2);
  const statuses = await sql<{ status: string; attempts: number }>(s, 'select status, attempts from emails where message_id = any(?) order by status', [`{${ids.join(',')}}`]);
  expect(statuses).toEqual([
    { status: 'delivered', attempts: 1 },
    { status: 'delivered', attempts: 1 },
    { status: 'queued', attempts: 0 },
    { status: 'queued', attempts: 0 },
  ]);
  // Their jobs wait for the next UTC midnight.
  const tomorrow = new Date();
  tomorrow.setUTCHours(24, 0, 0, 0);
  const jobs = await sql<{ start_after: Date }>(s, `select start_after from pgboss.job where name = 'email.deliver' and state = 'created' and data->>'message_id' = any(?)`, [`{${ids.join(',')}}`]);
  expect(jobs.map((j) => new Date(j.start_after).getTime())).toEqual([tomorrow.getTime(), tomorrow.getTime()]);
  expect(sampleOf(await scrapeMetrics(s), 'postbox_delivery_warmup_held_total{pool="fresh"}')).toBeGreaterThanOrEqual(2);

  const pools = (await op('{ operator_ip_pools { name addresses { address ehlo reverse_dns ehlo_matches warmed warmup_day daily_cap sent_today } } }')).body.data.operator_ip_pools;
  expect(pools).toEqual([
    { name: 'default', addresses: [{ address: '127.0.0.5', ehlo: 'mta5.pool.test', reverse_dns: ['mta5.pool.test'], ehlo_matches: true, warmed: true, warmup_day: null, daily_cap: null, sent_today: 0 }] },
    {
      name: 'blue',
      addresses: [
        { address: '127.0.0.6', ehlo: 'mta6.pool.test', reverse_dns: ['mta6.pool.test'], ehlo_matches: true, warmed: true, warmup_day: null, daily_cap: null, sent_today: 0 },
        { address: '127.0.0.7', ehlo: 'wrong.pool.test', reverse_dns: ['mta7.pool.test'], ehlo_matches: false, warmed: true, warmup_day: null, daily_cap: null, sent_today: 0 },
      ],
    },
    { name: 'fresh', addresses: [{ address: '127.0.0.8', ehlo: 'mta8.pool.test', reverse_dns: ['mta8.pool.test'], ehlo_matches: true, warmed: false, warmup_day: 1, daily_cap: 2, sent_today: 2 }] },
  ]);
});

describe('operator_set_ip_pool', () => {
  it('refuses a pool IP_POOLS does not have, a domain of another account, and any caller but the operator', async () => {
    const account = await accountIdOf(s);
    const bad = await op(SET, { a: account, p: 'nope' });
    expect(bad.body.errors[0]).toMatchObject({ message: 'The given data was invalid.', extensions: { code: 'VALIDATION_FAILED', errors: { pool: ['The selected pool is invalid.'] } } });
    const created = await op('mutation { operator_create_account(name: "Other") { account { id } } }');
    const otherAccount = created.body.data.operator_create_account.account.id;
    const domain = await seedDomain(s);
    expect((await op(SET, { a: otherAccount, d: domain.id, p: 'blue' })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await op(SET, { a: 'acc_missing', p: 'blue' })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const asAccount = await s.gql(SET, { a: account, p: 'blue' }, ADMIN_TOKEN);
    expect(asAccount.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await s.gql('{ operator_ip_pools { name } }', {}, ADMIN_TOKEN)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const [row] = await sql<{ ip_pool: string | null }>(s, 'select ip_pool from domains where id = ?', [domain.id]);
    expect(row.ip_pool).toBeNull();
  });
});

it('IP_POOLS is checked at start: JSON, addresses, one pool per address', () => {
  expect(() => parseConfig({ IP_POOLS: '[' })).toThrow(/IP_POOLS/);
  expect(() => parseConfig({ IP_POOLS: '{"a":[{"address":"mta.example"}]}' })).toThrow(/IP_POOLS/);
  expect(() => parseConfig({ IP_POOLS: '{"a":[{"address":"192.0.2.1"}],"b":[{"address":"192.0.2.1"}]}' })).toThrow(/in more than one pool/);
  expect(() => parseConfig({ IP_WARMUP_SCHEDULE: '50,x' })).toThrow(/IP_WARMUP_SCHEDULE/);
  expect(parseConfig({ IP_WARMUP_SCHEDULE: '5,10' }).IP_WARMUP_SCHEDULE).toEqual([5, 10]);
});

/**
 * Do the activity list and analytics stay flat as stored activity grows? One run on a throwaway
 * embedded PostgreSQL (api role only), loaded with autocannon from this process, at 10k, 100k
 * and 1M stored activities of one domain (4 per email: queued, sent, delivered, opened, spread
 * over the last 30 days; rollups rebuilt from them as the service keeps them). At each size:
 *   baseline   GET /health (fastify + `select 1`), the machine's weather at that moment
 *   list p1    GET /v1/activity/{domain}   first page of 25 over the 30 days
 *   list p40   the same, page 40 (offset 975)
 *   analytics  GET /v1/analytics/date      sent+delivered+opened per day over the 30 days
 * and the api process's peak RSS while loaded. p99 "flat" means it does not grow with the data.
 * Ends with one line `BENCH {...}`: list_p1_p99_growth (1M ÷ 10k), list_p1_rps at 1M, api_rss_mb.
 * Usage: npm run bench:scale [-- seconds [largest]]   (default 6 s per scenario, 1000000)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { NO_API_LIMITS } from './limits.js';
import { peakRssOf, printBench, spawnRole, startDb, yearOfWeeks } from './service.js';

const seconds = Number(process.argv[2] ?? 6);
const largest = Number(process.argv[3] ?? 1_000_000);
const sizes = [10_000, 100_000, 1_000_000].filter((n) => n <= largest);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-scale-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const database = await startDb(dir);
const service = await spawnRole('api', {
  DATABASE_URL: database.url,
  DATA_DIR: dir,
  ADMIN_TOKEN: token,
  DOMAIN_REQUIRE_DNS: 'false',
  ...NO_API_LIMITS,
});
const url = service.url!;
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
// The database stops before this process exits: an idle client's goodbye is not a failure.
pool.on('error', () => undefined);
// `?` placeholders, numbered for pg.
const sql = async (q: string, params: unknown[] = []) => {
  let n = 0;
  return (await pool.query(q.replace(/\?/g, () => `$${++n}`), params)).rows;
};

const created = await fetch(`${url}/v1/domains`, { method: 'POST', headers, body: JSON.stringify({ name: 'scale.example.com' }) });
const domain = ((await created.json()) as { data: { id: string } }).data;
const [{ account_id: accountId }] = await sql('select account_id from domains where id = ?', [domain.id]);
// The paid plan: a free account's list hides nothing here, but paid is what large senders run.
await sql(`update accounts set plan = 'professional' where id = ?`, [accountId]);
await sql(`insert into recipients (id, created_at, updated_at, account_id, domain_id, email)
           select 'rcpt' || g, now(), now(), ?, ?, 'reader' || g || '@example.net' from generate_series(1, 10000) g`, [accountId, domain.id]);

const TYPES = ['queued', 'sent', 'delivered', 'opened'];
let stored = 0;

/**
 * Ids as the service makes them (lib/ids.ts sortableId): the seconds since 2020 of the row's
 * moment in 6 base36 characters (postbox_id_prefix, its SQL twin), then a unique tail, so each
 * row lands in the week of its moment among a year of weeks (yearOfWeeks), as a deployment that
 * keeps a year has them.
 */
await yearOfWeeks(pool);
/** When an email of the series was sent: one moment per email in the 30 days before the run started. */
const started = new Date();
const AT = `$5::timestamptz - interval '30 days' * ((g * 7919) % 100000) / 100000.0`;

/** Adds emails (and their message) until `target` activities are stored, in SQL, 50k emails per statement. */
async function growTo(target: number) {
  while (stored < target) {
    const emails = Math.min(50_000, (target - stored) / TYPES.length);
    const from = stored / TYPES.length + 1;
    const to = from + emails - 1;
    const p = [accountId, domain.id, from, to, started];
    await sql(`insert into messages (id, created_at, updated_at, account_id, domain_id, from_email, cc, bcc, subject, text, tags, personalization, settings, headers, "references", status)
               select postbox_id_prefix(${AT}) || lpad(g::text, 18, '0'), ${AT}, ${AT}, $1, $2, 'news@scale.example.com', '[]', '[]', 'Receipt ' || g, 'Hello', '{}', '[]', '{}', '[]', '[]', 'sent'
                 from generate_series($3::int, $4::int) g`, p);
    await sql(`insert into emails (id, created_at, updated_at, account_id, domain_id, message_id, recipient_id, to_email, subject, tags, status)
               select postbox_id_prefix(${AT}) || lpad(g::text, 10, '0'), ${AT}, ${AT}, $1, $2, postbox_id_prefix(${AT}) || lpad(g::text, 18, '0'), 'rcpt' || (1 + g % 10000), 'reader' || (1 + g % 10000) || '@example.net', 'Receipt ' || g, '{}', 'delivered'
                 from generate_series($3::int, $4::int) g`, p);
    // Its four activities a second apart, each with the id of its own moment.
    await sql(`insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, data)
               select postbox_id_prefix(e.at + t.n * interval '1 second') || lpad(g::text, 9, '0') || t.n, e.at + t.n * interval '1 second', e.at + t.n * interval '1 second', $1, $2,
                      postbox_id_prefix(e.at) || lpad(g::text, 10, '0'), t.type, '{}'
                 from generate_series($3::int, $4::int) g
                 cross join lateral (select ${AT} as at) e
                 cross join (values (0, 'queued'), (1, 'sent'), (2, 'delivered'), (3, 'opened')) t(n, type)`, p);
    stored += emails * TYPES.length;
  }
  await sql('delete from activity_stats where domain_id = ?', [domain.id]);
  await sql(`insert into activity_stats (account_id, domain_id, day, type, tags, country, ua_name, ua_type, shard, count)
             select account_id, domain_id, created_at::date, type, '{}', '', '', '', 0, count(*)
               from activities where domain_id = ? group by account_id, domain_id, created_at::date, type`, [domain.id]);
  await sql('analyze');
}

async function load(title: string, path: string) {
  const probe = await fetch(`${url}${path}`, { headers });
  if (!probe.ok) throw new Error(`${title}: ${probe.status} ${await probe.text()}`);
  const rss = peakRssOf({ api: service.pid });
  const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: seconds, headers });
  const peak = rss.stop().api;
  const bad = result.non2xx + result.errors;
  if (bad) throw new Error(`${title}: ${bad} failed requests`);
  return { title, rps: Math.round(result.requests.average), p99: result.latency.p99, rssMb: peak };
}

const now = Math.floor(Date.now() / 1000);
const range = `date_from=${now - 30 * 86400}&date_to=${now}`;
const rows: string[] = [];
const listP1 = new Map<number, { rps: number; p99: number }>();
let rssMax = 0;
try {
  for (const size of sizes) {
    const t = Date.now();
    await growTo(size);
    const seeded = ((Date.now() - t) / 1000).toFixed(1);
    const base = await load('baseline', '/health');
    const results = [
      base,
      await load('list p1', `/v1/activity/${domain.id}?${range}&limit=25`),
      await load('list p40', `/v1/activity/${domain.id}?${range}&limit=25&page=40`),
      await load('analytics', `/v1/analytics/date?domain_id=${domain.id}&${range}&group_by=days&event[]=sent&event[]=delivered&event[]=opened`),
    ];
    listP1.set(size, results[1]);
    rssMax = Math.max(rssMax, ...results.map((r) => r.rssMb));
    for (const r of results) {
      rows.push(`| ${size.toLocaleString('en')} | ${r.title} | ${r.rps} | ${r.p99} | ${(r.rps / base.rps).toFixed(2)} | ${r.rssMb} |`);
    }
    console.error(`${size} activities stored (seeding took ${seeded} s)`);
  }
  console.log('| activities | scenario | req/s | p99 ms | vs baseline | peak RSS MB |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const small = listP1.get(sizes[0])!;
  const big = listP1.get(sizes[sizes.length - 1])!;
  printBench({ list_p1_p99_growth: +(big.p99 / small.p99).toFixed(2), list_p1_rps: big.rps, api_rss_mb: rssMax });
} finally {
  await service.stop();
  await pool.end();
  await database.stop();
  rmSync(dir, { recursive: true, force: true });
}

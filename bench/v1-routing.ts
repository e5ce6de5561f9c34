/**
 * /v1 dispatch cost against the number of routes, and the GraphQL twin of a /v1 call.
 *
 * The service runs as its own process (bench/service.ts: `node dist/src/main.js --role api`) on a
 * throwaway embedded PostgreSQL this process starts; autocannon loads it from here, one scenario
 * after another, so the load generator never shares the service's event loop and every figure
 * comes from the same run:
 *   baseline  GET /health                 (fastify + one `select 1`)
 *   first     GET /v1/token/nope          (the first route table: auth, lookup, 404)
 *   last      GET /v1/invites/nope        (the last route table: the same work)
 *   list      GET /v1/token               (a list of one token through /v1)
 *   graphql   POST /graphql { tokens }    (the GraphQL twin of `list`)
 *   by id     GET /v1/token/{id} and its GraphQL twin `{ token(token_id) }`
 *   (each twin pair alternated three times a side, the best run of each side counting)
 *   mutation  PUT /v1/token/{id} and its GraphQL twin `update_token`
 *   list 25   GET /v1/token?limit=25      (the same list with 25 tokens: per-row cost)
 * Ends with one line `BENCH {...}`: token_list_ratio (list ÷ baseline), graphql_over_v1 (the
 * list's GraphQL ÷ /v1), graphql_over_v1_by_id, graphql_over_v1_mutation, and the req/s they
 * come from.
 * Usage: npm run bench:routing [-- seconds]   (default 8 s per scenario, 20 connections)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPubSub } from '@graphql-yoga/subscription';
import pino from 'pino';
import { buildAppSchema } from '../src/graphql/schema.js';
import { createRestSurface } from '../rest-mapping/adapter.js';
import { routeTableOf } from '../rest-mapping/index.js';
import { resolvers, rest as contract } from '../src/modules/index.js';
import { NO_API_LIMITS } from './limits.js';
import { peakRssOf, printBench, spawnRole, startDb, type RoleProcess } from './service.js';

/** The dispatcher alone: nanoseconds per match() of a route, by its position in the table. */
async function matchCost() {
  const rest = createRestSurface(await buildAppSchema(createPubSub() as never, resolvers), contract, pino({ level: 'silent' }));
  const specs = Object.values(routeTableOf(contract));
  const probe = (spec: (typeof specs)[number]) => ({ method: spec.method, path: `/v1${spec.path.replace(/:[a-z_]+/g, 'x1')}` });
  const first = probe(specs[0]);
  const last = probe(specs[specs.length - 1]);
  const time = (p: { method: string; path: string }) => {
    const n = 200_000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (!rest.match(p.method, p.path)) throw new Error(`no match for ${p.path}`);
    return Number(process.hrtime.bigint() - t0) / n;
  };
  time(first);
  time(last);
  return { routes: specs.length, first: { ...first, ns: time(first) }, last: { ...last, ns: time(last) } };
}

const seconds = Number(process.argv[2] ?? 8);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const auth = { authorization: `Bearer ${token}` };
const db = await startDb(dir);
let api: RoleProcess | null = null;

interface Row {
  name: string;
  rps: number;
  p99: number;
}

async function run(name: string, url: string, opts: Partial<autocannon.Options> = {}, expect = 200): Promise<Row> {
  const r = await autocannon({ url, connections: 20, duration: seconds, ...opts });
  const wrong = r.statusCodeStats ? Object.entries(r.statusCodeStats).filter(([code]) => Number(code) !== expect) : [];
  if (wrong.length || r.errors) throw new Error(`${name}: unexpected answers ${JSON.stringify(wrong)} errors=${r.errors}`);
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99 };
}

try {
  api = await spawnRole('api', { DATABASE_URL: db.url, DATA_DIR: dir, ADMIN_TOKEN: token, ...NO_API_LIMITS });
  const base = api.url!;
  const listOne = await (await fetch(`${base}/v1/token`, { headers: auth })).json();
  if (listOne?.data?.length !== 1) throw new Error(`GET /v1/token: ${JSON.stringify(listOne)}`);
  await run('warm-up', `${base}/v1/token`, { headers: auth, duration: 2 });
  const rss = peakRssOf({ api: api.pid });
  const tokenId = listOne.data[0].id as string;
  const graphql = (query: string) => ({ method: 'POST' as const, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  // A twin pair runs alternated, three times a side, and each side's best run counts: this
  // machine's neighbours move single runs more than the difference measured.
  const twins = async (v1: Parameters<typeof run>, gql: Parameters<typeof run>) => {
    const best = (a: Row | null, b: Row) => (a && a.rps >= b.rps ? a : b);
    let v1Best: Row | null = null;
    let gqlBest: Row | null = null;
    for (let i = 0; i < 3; i++) {
      v1Best = best(v1Best, await run(...v1));
      gqlBest = best(gqlBest, await run(...gql));
    }
    return [v1Best!, gqlBest!];
  };
  const short = { duration: Math.max(2, Math.round(seconds / 2)) };
  const rows = [
    await run('baseline GET /health', `${base}/health`),
    await run('first table GET /v1/token/nope (404)', `${base}/v1/token/nope`, { headers: auth }, 404),
    await run('last table GET /v1/invites/nope (404)', `${base}/v1/invites/nope`, { headers: auth }, 404),
    ...(await twins(
      ['list GET /v1/token', `${base}/v1/token`, { headers: auth, ...short }],
      ['GraphQL { tokens }', `${base}/graphql`, { ...graphql('{ tokens { id name status created_at scopes } }'), ...short }],
    )),
    ...(await twins(
      ['by id GET /v1/token/{id}', `${base}/v1/token/${tokenId}`, { headers: auth, ...short }],
      ['GraphQL { token(token_id) }', `${base}/graphql`, { ...graphql(`{ token(token_id: "${tokenId}") { id name status created_at scopes } }`), ...short }],
    )),
    ...(await twins(
      ['mutation PUT /v1/token/{id}', `${base}/v1/token/${tokenId}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench admin' }), ...short }],
      ['GraphQL update_token', `${base}/graphql`, { ...graphql(`mutation { update_token(token_id: "${tokenId}", name: "bench admin") { id name status created_at scopes } }`), ...short }],
    )),
  ];
  // The same list with a full page: what each row costs.
  for (let i = 0; i < 24; i++) {
    const res = await fetch(`${base}/v1/token`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench ${i}`, scopes: ['email_full', 'domains_read'] }),
    });
    if (res.status !== 200) throw new Error(`POST /v1/token: ${res.status} ${await res.text()}`);
  }
  rows.push(await run('list of 25 GET /v1/token?limit=25', `${base}/v1/token?limit=25`, { headers: auth }));
  const peak = rss.stop();
  const m = await matchCost();
  const [health, first, last, list, listGraphql, byId, byIdGraphql, mutation, mutationGraphql, list25] = rows;
  console.log(`\n${seconds}s per scenario, 20 connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}); the api role in its own process, peak RSS ${peak.api} MB`);
  console.log('| scenario | req/s | p99 ms | vs baseline |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${(r.rps / health.rps).toFixed(2)} |`);
  console.log(`\nmatch() over ${m.routes} routes: first ${m.first.method} ${m.first.path} ${m.first.ns.toFixed(0)} ns, last ${m.last.method} ${m.last.path} ${m.last.ns.toFixed(0)} ns (ratio ${(m.last.ns / m.first.ns).toFixed(2)})`);
  console.log(`last/first route ratio: ${(last.rps / first.rps).toFixed(2)}; GraphQL/v1 ratio: list ${(listGraphql.rps / list.rps).toFixed(2)}, by id ${(byIdGraphql.rps / byId.rps).toFixed(2)}, mutation ${(mutationGraphql.rps / mutation.rps).toFixed(2)}`);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  printBench({
    token_list_ratio: round(list.rps / health.rps),
    graphql_over_v1: round(listGraphql.rps / list.rps),
    graphql_over_v1_by_id: round(byIdGraphql.rps / byId.rps),
    graphql_over_v1_mutation: round(mutationGraphql.rps / mutation.rps),
    token_list_rps: list.rps,
    health_rps: health.rps,
    token_list_25_rps: list25.rps,
    api_rss_mb: peak.api,
  });
} finally {
  await api?.stop();
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * /v1 dispatch cost against the number of routes, and the GraphQL twin of a /v1 call.
 *
 * Runs the whole service on a throwaway embedded PostgreSQL and loads it with autocannon from
 * this process, one scenario after another, so every figure comes from the same run:
 *   baseline  GET /health                 (fastify + one `select 1`)
 *   first     GET /v1/token/nope          (the first route table: auth, lookup, 404)
 *   last      GET /v1/invites/nope        (the last route table: the same work)
 *   list      GET /v1/token               (a list through sofa)
 *   graphql   POST /graphql { tokens }    (the GraphQL twin of `list`)
 * Usage: npm run bench:routing [-- seconds]   (default 8 s per scenario, 20 connections)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPubSub } from '@graphql-yoga/subscription';
import pino from 'pino';
import { startApp } from '../src/app.js';
import { buildAppSchema } from '../src/graphql/schema.js';
import { createRestSurface } from '../rest-mapping/adapter.js';
import { routeTable } from '../rest-mapping/index.js';
import { NO_API_LIMITS } from './limits.js';

/** The dispatcher alone: nanoseconds per match() of a route, by its position in the table. */
async function matchCost() {
  const rest = createRestSurface(await buildAppSchema(createPubSub() as never), routeTable, pino({ level: 'silent' }));
  const specs = Object.values(routeTable);
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
const app = await startApp({
  roles: ['api'],
  env: { DATA_DIR: dir, EMBEDDED_PG_PORT: '5498', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN: token, ...NO_API_LIMITS },
});

async function run(name: string, path: string, opts: Partial<autocannon.Options> = {}, expect = 200) {
  const r = await autocannon({ url: `${app.url}${path}`, connections: 20, duration: seconds, ...opts });
  const wrong = r.statusCodeStats ? Object.entries(r.statusCodeStats).filter(([code]) => Number(code) !== expect) : [];
  if (wrong.length || r.errors) throw new Error(`${name}: unexpected answers ${JSON.stringify(wrong)} errors=${r.errors}`);
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99 };
}

const auth = { authorization: `Bearer ${token}` };
try {
  await run('warm-up', '/v1/token', { headers: auth, duration: 2 });
  const rows = [
    await run('baseline GET /health', '/health'),
    await run('first table GET /v1/token/nope (404)', '/v1/token/nope', { headers: auth }, 404),
    await run('last table GET /v1/invites/nope (404)', '/v1/invites/nope', { headers: auth }, 404),
    await run('list GET /v1/token', '/v1/token', { headers: auth }),
    await run('GraphQL { tokens }', '/graphql', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tokens { id name status created_at scopes } }' }),
    }),
  ];
  const m = await matchCost();
  const base = rows[0].rps;
  console.log(`\n${seconds}s per scenario, 20 connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'})`);
  console.log('| scenario | req/s | p99 ms | vs baseline |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${(r.rps / base).toFixed(2)} |`);
  console.log(`\nmatch() over ${m.routes} routes: first ${m.first.method} ${m.first.path} ${m.first.ns.toFixed(0)} ns, last ${m.last.method} ${m.last.path} ${m.last.ns.toFixed(0)} ns (ratio ${(m.last.ns / m.first.ns).toFixed(2)})`);
  console.log(`last/first route ratio: ${(rows[2].rps / rows[1].rps).toFixed(2)}; GraphQL/v1 ratio: ${(rows[4].rps / rows[3].rps).toFixed(2)}`);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

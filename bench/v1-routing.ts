/**
 * /v1 dispatch cost against the number of routes, and the GraphQL twin of a /v1 call.
 *
 * Runs the whole service on a throwaway embedded PostgreSQL and loads it with autocannon from
 * this process, one scenario after another, so every figure comes from the same run:
 *   baseline  GET /health            (fastify + one `select 1`)
 *   first     GET /v1/token          (the first route table)
 *   last      GET /v1/invites        (the last route table)
 *   graphql   POST /graphql { tokens } (the GraphQL twin of `first`)
 * Usage: npm run bench:routing [-- seconds]   (default 8 s per scenario, 20 connections)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startApp } from '../src/app.js';

const seconds = Number(process.argv[2] ?? 8);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const app = await startApp({
  roles: ['api'],
  env: { DATA_DIR: dir, EMBEDDED_PG_PORT: '5498', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN: token },
});

async function run(name: string, path: string, opts: Partial<autocannon.Options> = {}) {
  const r = await autocannon({ url: `${app.url}${path}`, connections: 20, duration: seconds, ...opts });
  if (r.non2xx) throw new Error(`${name}: ${r.non2xx} non-2xx answers`);
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99 };
}

const auth = { authorization: `Bearer ${token}` };
try {
  await run('warm-up', '/v1/token', { headers: auth, duration: 2 });
  const rows = [
    await run('baseline GET /health', '/health'),
    await run('first table GET /v1/token', '/v1/token', { headers: auth }),
    await run('last table GET /v1/invites', '/v1/invites', { headers: auth }),
    await run('GraphQL { tokens }', '/graphql', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tokens { id name status created_at scopes } }' }),
    }),
  ];
  const base = rows[0].rps;
  console.log(`\n${seconds}s per scenario, 20 connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'})`);
  console.log('| scenario | req/s | p99 ms | vs baseline |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${(r.rps / base).toFixed(2)} |`);
  console.log(`\nlast/first route ratio: ${(rows[2].rps / rows[1].rps).toFixed(2)}; GraphQL/v1 ratio: ${(rows[3].rps / rows[1].rps).toFixed(2)}`);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

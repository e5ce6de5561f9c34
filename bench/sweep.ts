/**
 * The full bad-input sweep (docs/reliability.md): every /v1 operation of schema/openapi.json with
 * the whole hostile budget, hundreds of malformed GraphQL requests and dozens of malformed SMTP
 * sessions, against the api and smtp roles on a throwaway embedded PostgreSQL. No worker runs,
 * so nothing changes data in the background while checksums compare. Then the worst input of each
 * parser and renderer (bench/worst-inputs.ts) against a service of every role, with the event
 * loop's longest delay around each. Prints the figures and exits 1 on any 5xx, error-shape
 * violation, data change by a refused request, or input that held the loop past 200 ms.
 * Usage: npm run bench:sweep [-- <cases per /v1 operation>]   (default 150)
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../src/app.js';
import { hostileCases, type OpenApiDoc } from '../test/support/hostile.js';
import { graphqlAccepted, graphqlCases, graphqlViolation, sendGraphQL } from '../test/support/hostile-graphql.js';
import { smtpSessions, sweepSmtp } from '../test/support/hostile-smtp.js';
import { bodyLimitOf, DataWatch, emptyReport, sweepBatches, sweepOperation, type SweepReport } from '../test/support/sweep-check.js';
import { seedDomain } from '../test/support/factories.js';
import type { TestServer } from '../test/support/server.js';
import { NO_API_LIMITS } from './limits.js';
import { LOOP_DELAY_LIMIT_MS, startWorstTarget, sweepWorstInputs, type WorstOutcome } from './worst-inputs.js';

const budget = Number(process.argv[2] ?? 150);
const MB = 1024 * 1024;
const LIMITS = { MAX_BODY_BYTES: 8 * MB, DEFAULT_BODY_BYTES: MB };
const SMTP_MAX = 1 * MB;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const doc = JSON.parse(readFileSync(path.join(root, 'schema/openapi.json'), 'utf8')) as OpenApiDoc;
const sdl = readFileSync(path.join(root, 'schema/schema.graphql'), 'utf8');

const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-'));
const token = 'mlsn.bench-admin-token-000000000000000000000000000000000000000';
const app = await startApp({
  roles: ['api', 'smtp'],
  env: {
    DATA_DIR: dir,
    EMBEDDED_PG_PORT: '5494',
    PORT: '0',
    HOST: '127.0.0.1',
    SMTP_PORT: '0',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: token,
    MAX_BODY_BYTES: String(LIMITS.MAX_BODY_BYTES),
    DEFAULT_BODY_BYTES: String(LIMITS.DEFAULT_BODY_BYTES),
    SMTP_MAX_MESSAGE_BYTES: String(SMTP_MAX),
    ...NO_API_LIMITS,
  },
});
const url = app.url!;
const failures = (r: SweepReport) => [...r.serverErrors, ...r.shapeViolations, ...r.dataChanges];

try {
  const gql = async (query: string) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return { status: res.status, body: await res.json(), headers: res.headers, text: '' };
  };
  const domain = await seedDomain({ app, gql } as unknown as TestServer);
  const created = await fetch(`${url}/v1/domains/${domain.id}/smtp-users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'sweep' }),
  });
  const user = (await created.json()).data as { username: string; password: string };
  const dbUrl = (app.services.orm.config.get('clientUrl') as string | undefined) ?? '';
  const watch = new DataWatch(dbUrl, { smtp_users: ['accessed_at', 'updated_at'] });
  await watch.start();

  const started = Date.now();
  const v1 = emptyReport();
  const operations = hostileCases(doc, { budget, seed: 1, bodyLimit: bodyLimitOf(LIMITS), ids: { domain_id: domain.id } });
  for (const op of operations) await sweepOperation(url, token, watch, op.cases, v1);
  const v1Ms = Date.now() - started;

  const graphql = emptyReport();
  const documents = graphqlCases(sdl, 600, 1);
  await sweepBatches(documents, { send: (c) => sendGraphQL(url, token, c), violation: graphqlViolation, accepted: graphqlAccepted }, watch, graphql);
  const graphqlMs = Date.now() - started - v1Ms;

  const smtp = emptyReport();
  const target = { port: app.smtpPort!, domain: domain.name, username: user.username, password: user.password, maxBytes: SMTP_MAX };
  // Each session twice: the second round proves the listener took the first in its stride.
  const sessions = smtpSessions();
  await sweepSmtp(target, [...sessions, ...sessions], watch, smtp);
  const smtpMs = Date.now() - started - v1Ms - graphqlMs;
  await watch.close();

  const histogram = (r: SweepReport) => Object.entries(r.statuses).map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log(`\nbad-input sweep, ${os.cpus().length} cores; /v1 budget ${budget} cases per operation, ${operations.length} operations`);
  console.log('| surface | cases | duration s | 5xx / internal errors | shape violations | data changes by refusals |\n|---|---|---|---|---|---|');
  for (const [name, r, ms] of [['/v1', v1, v1Ms], ['GraphQL', graphql, graphqlMs], ['SMTP sessions', smtp, smtpMs]] as const) {
    console.log(`| ${name} | ${r.sent} | ${(ms / 1000).toFixed(1)} | ${r.serverErrors.length} | ${r.shapeViolations.length} | ${r.dataChanges.length} |`);
  }
  console.log(`\n/v1 cases by kind: ${Object.entries(v1.byKind).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`/v1 statuses: ${histogram(v1)}`);
  console.log(`/v1 refusals re-checked one by one (their batch had an accepted request): ${v1.replayed}`);
  console.log(`GraphQL statuses: ${histogram(graphql)}`);
  const all = [...failures(v1), ...failures(graphql), ...failures(smtp)];
  if (all.length) {
    console.log(`\nFAILED: ${all.length} problem(s); the first ones:`);
    for (const f of all.slice(0, 30)) console.log(`- ${f}`);
    process.exitCode = 1;
  } else {
    console.log('\nOK: no 5xx, every error in the documented shape, no data changed by a refused request.');
  }
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

const worstDir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-worst-'));
const worst = await startWorstTarget(worstDir, 5495);
let outcomes: WorstOutcome[] = [];
try {
  outcomes = await sweepWorstInputs(worst.target);
} finally {
  await worst.app.close();
  rmSync(worstDir, { recursive: true, force: true });
}
console.log(`\nworst inputs, each alone against every role in one process: the event loop's longest delay (limit ${LOOP_DELAY_LIMIT_MS} ms)`);
console.log('| input | answer | loop delay ms |\n|---|---|---|');
for (const o of outcomes) console.log(`| ${o.name} | ${o.answer.replace(/\|/g, '/')} | ${o.loopDelayMs} |`);
const held = outcomes.filter((o) => o.loopDelayMs > LOOP_DELAY_LIMIT_MS);
const worstMs = Math.max(0, ...outcomes.map((o) => o.loopDelayMs));
console.log(`BENCH ${JSON.stringify({ sweep_worst_loop_delay_ms: worstMs })}`);
if (held.length) {
  console.log(`\nFAILED: ${held.length} input(s) held the event loop past ${LOOP_DELAY_LIMIT_MS} ms: ${held.map((o) => o.name).join('; ')}`);
  process.exitCode = 1;
} else {
  console.log(`\nOK: no input held the event loop past ${LOOP_DELAY_LIMIT_MS} ms (worst ${worstMs} ms).`);
}

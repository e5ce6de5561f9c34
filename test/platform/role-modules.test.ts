import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/db.js';

/**
 * What the api role keeps resident is mostly the code it loads (docs/performance.md, Memory), so
 * the packages only some requests or other roles need load on first use (src/lib/lazy.ts). This
 * runs the real entry point (dist/src/main.js, as `npm start`) with a preload that lists every
 * module the process loads, ESM imports and `require` alike, and writes the list on SIGUSR2.
 */
const PRELOAD = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
registerHooks({ load(url, context, next) { seen.add(url); return next(url, context); } });
process.on('SIGUSR2', () => writeFileSync(process.env.PB_LOADED_MODULES, [...seen].join('\\n')));
`;

/** Loaded on first use, so a running api role that was not asked for them holds none of them. */
const ON_FIRST_USE = ['liquidjs', 'sanitize-html', 're2js', 'tldts', 'otpauth', 'smtp-server', 'mailparser', 'fast-xml-parser', 'fflate', 'selfsigned', 'undici', 'nodemailer'];

const token = 'mlsn.role-modules-test-token-00000000000000000000000000000000000';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
let child: ChildProcess | null = null;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-role-modules-'));
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The packages (node_modules/<name>) the process has loaded so far. */
async function loadedPackages(p: ChildProcess, file: string): Promise<Set<string>> {
  rmSync(file, { force: true });
  p.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((n): n is string => Boolean(n));
  return new Set(names);
}

it('the api role serves lists and GraphQL without loading the packages kept for first use, and loads one when asked', async () => {
  const list = path.join(dir, 'loaded.txt');
  child = spawn(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(PRELOAD)}`, 'dist/src/main.js', '--role', 'api'], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: token,
      APP_SECRET: 'role-modules-test-secret-0123456789abcdef',
      DOMAIN_REQUIRE_DNS: 'false',
      PB_LOADED_MODULES: list,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  let out = '';
  child.stderr!.on('data', (chunk) => (out += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the api did not start: ${out}`)), 60_000);
    child!.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /"msg":"api listening"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"api listening"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? m[2]!);
      }
    });
  });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  expect((await fetch(`${url}/v1/token`, { headers: auth })).status).toBe(200);
  const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: auth, body: JSON.stringify({ query: '{ tokens(limit: 10) { id } }' }) });
  expect(gql.status).toBe(200);
  const before = await loadedPackages(child, list);
  // The instrument sees the stack every request uses.
  expect([...before]).toEqual(expect.arrayContaining(['fastify', 'graphql', '@mikro-orm/core', 'pg']));
  expect(ON_FIRST_USE.filter((name) => before.has(name))).toEqual([]);

  // Adding a domain checks its name against the public suffix list: tldts loads then, and the
  // list shows a package loaded by `require` on first use as well.
  const added = await fetch(`${url}/v1/domains`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'role-modules.example.com' }) });
  expect(added.status).toBe(201);
  const after = await loadedPackages(child, list);
  expect(after.has('tldts')).toBe(true);

  child.kill('SIGTERM');
  expect(await exit).toBe(0);
}, 90_000);

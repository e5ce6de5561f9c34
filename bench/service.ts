/**
 * The service as a bench measures it: each role in its own process (`node dist/src/main.<role>.js`,
 * as compose runs it), on an embedded PostgreSQL this process starts, so the load generator, the sink
 * and the baselines never share the service's event loop or heap, and each role's memory is its
 * own (read from /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { startEmbeddedPostgres, type EmbeddedDb } from '../src/db/embedded.js';
import { NO_API_LIMITS } from './limits.js';
import { periodsBetween, PARTITION_DAYS } from '../src/db/partitions.js';
import { PARTITIONED_TABLES } from '../src/modules/retention/partitions.js';

/**
 * The compiled entry points beside this compiled file (dist/bench/service.js → dist/src/main.js):
 * a role's own entry for one role, as compose runs it, main.js for several.
 */
const entryOf = (role: string): string[] =>
  role.includes(',') ? [path.join(import.meta.dirname, '../src/main.js'), '--role', role] : [path.join(import.meta.dirname, `../src/main.${role}.js`)];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The V8 flags the service is started with (package.json's start scripts, the Dockerfile's
 * NODE_OPTIONS): a young generation of at most 2 × 16 MB. Node 24 otherwise grows it much
 * larger on a machine with this much memory, a large share of the api role's RSS, for no
 * throughput bench:memory and bench:routing can see.
 * BENCH_NODE_FLAGS overrides them, to compare.
 */
export const SERVICE_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=16').split(' ').filter(Boolean);

/**
 * The environment glibc reads at the process's start, as the start scripts and the image set it:
 * two malloc arenas (MALLOC_ARENA_MAX, docs/configuration.md). This process's own value overrides it, to
 * compare (`MALLOC_ARENA_MAX=0` is glibc's default, up to 8 per core).
 */
export const SERVICE_MALLOC_ENV = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startDb(dir: string): Promise<EmbeddedDb> {
  return startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort() });
}

/** Resident memory of a process now, in MB (0 once it is gone). */
export function rssMbOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s); 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** The embedded PostgreSQL's postmaster: the parent of a backend of `sql`'s. */
export async function postmasterOf(sql: { query<R>(text: string): Promise<{ rows: R[] }> }): Promise<number> {
  const { rows: [b] } = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
  return Number(readFileSync(`/proc/${b.pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
}

/** CPU seconds of the embedded PostgreSQL: the postmaster, its children now, and those it reaped. */
export function postgresCpu(postmaster: number): number {
  const stat = (pid: number | string) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = stat(pid);
      if (Number(pid) === postmaster) total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
      else if (Number(f[1]) === postmaster) total += (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Samples the peak RSS of some processes every 100 ms until stopped. */
export function peakRssOf(pids: Record<string, number>) {
  const peak: Record<string, number> = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const sample = () => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k], rssMbOf(pid));
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export interface RoleProcess {
  child: ChildProcess;
  pid: number;
  /** `http://127.0.0.1:<port>` for the api role. */
  url: string | null;
  stop(): Promise<void>;
}

/**
 * Starts one role in its own process and waits until it is ready: the api role until /health
 * answers, the others for `readyMs`. A process that exits while starting fails the bench.
 */
export async function spawnRole(role: string, env: Record<string, string>, readyMs = 3000): Promise<RoleProcess> {
  const port = role.split(',').includes('api') ? await freePort() : null;
  const verbose = Boolean(process.env.BENCH_LOG_LEVEL);
  // BENCH_PROF_DIR: each role writes a V8 CPU profile there when it exits (to read where its time goes).
  const prof = process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`, `--cpu-prof-name=${role}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...prof, ...entryOf(role)], {
    env: { ...process.env, ...SERVICE_MALLOC_ENV, HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', ...env, ...(port ? { PORT: String(port) } : {}) },
    stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'inherit'],
  });
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `${code ?? signal}`));
  const url = port ? `http://127.0.0.1:${port}` : null;
  const deadline = Date.now() + 60_000;
  if (url) {
    while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
      if (exited) throw new Error(`the ${role} process exited while starting (${exited})`);
      if (Date.now() > deadline) throw new Error(`the ${role} process did not start within 60 s`);
      await sleep(100);
    }
  } else {
    await sleep(readyMs);
    if (exited) throw new Error(`the ${role} process exited while starting (${exited})`);
  }
  return {
    child,
    pid: child.pid!,
    url,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      // A process a bench stopped (SIGSTOP) handles SIGTERM only once it runs again.
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** The line a script reads: `BENCH {"name": figure, ...}`. */
export function printBench(figures: Record<string, number>) {
  console.log(`BENCH ${JSON.stringify(figures)}`);
}

/**
 * What every bench gives the roles it starts: its database and data directory, an admin token,
 * DNS offline (the benches mark their domains verified by hand, as DNS would) and no API limits.
 */
export function serviceEnv(o: { dbUrl: string; dir: string; appSecret: string; token: string }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: o.dbUrl,
    DATA_DIR: o.dir,
    APP_SECRET: o.appSecret,
    ADMIN_TOKEN: o.token,
    DOMAIN_REQUIRE_DNS: 'false',
    DOMAIN_VERIFICATION: 'dns',
    ...NO_API_LIMITS,
    ...extra,
  };
}

/** Stops what a bench started, newest first, whatever failed: roles, the sink, its pool, the database, its files. */
export async function teardown(o: { running: RoleProcess[]; sink?: { close(): Promise<unknown> } | null; sql: { end(): Promise<unknown> }; db: EmbeddedDb; dir: string }) {
  for (const p of [...o.running].reverse()) await p.stop().catch(() => undefined);
  await o.sink?.close();
  await o.sql.end();
  await o.db.stop();
  rmSync(o.dir, { recursive: true, force: true });
}

/**
 * A year of weeks behind this one in each partitioned table, as a deployment with an account on a
 * plan that keeps a year has: the statements of delivery and of the webhook engine must read only
 * the weeks their ids are in (db/partitions.ts idsIn, idsFrom, partsOf), whatever the number kept.
 */
export async function yearOfWeeks(sql: { query(text: string, values: unknown[]): Promise<unknown> }): Promise<void> {
  const weekMs = PARTITION_DAYS * 86_400_000;
  for (const t of PARTITIONED_TABLES) {
    for (const p of periodsBetween(t, Date.now() - 52 * weekMs, Date.now() - weekMs)) {
      await sql.query('select postbox_partition_attach($1, $2, $3, $4)', [t.table, p.name, p.lo, p.hi]);
    }
  }
}

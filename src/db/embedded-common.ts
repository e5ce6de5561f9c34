import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';

/** What embedded.ts and embedded-root.ts share: the handle, the one-line errors, the password file. */
export interface EmbeddedDb {
  url: string;
  /** Where the cluster lives. */
  dir: string;
  stop(): Promise<void>;
}

/** A start-up failure with a known fix: printed as its one-line message, without a stack. */
export class EmbeddedSetupError extends Error {
  [inspect.custom]() {
    return this.message;
  }
}

/**
 * Where, as root, the binaries and relocated clusters go. Not os.tmpdir(): anyone may create
 * names in /tmp (a planted folder or symlink there would be run or written by root), and tmp
 * cleaners delete old files. /var/lib is writable by root only and is where state belongs.
 */
export const ROOT_BASE = '/var/lib/postbox';
export const FLAGS = ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'];
export const reason = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

export const url = (password: string, port: number) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;

/** The password, kept next to the cluster as `<dir>.password` (0600, the service's user only). */
export function ensurePassword(dir: string): string {
  const file = `${dir}.password`;
  try {
    mkdirSync(path.dirname(dir), { recursive: true });
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    const password = randomBytes(18).toString('hex');
    writeFileSync(file, password, { mode: 0o600 });
    return password;
  } catch (err) {
    throw new EmbeddedSetupError(
      `cannot write the database folder ${path.dirname(dir)} (${reason(err)}): set DATA_DIR (or EMBEDDED_PG_DIR) to a folder this user can write, or fix its owner and mode`,
    );
  }
}

/** Where and how the embedded PostgreSQL runs (embedded.ts startEmbeddedPostgres). */
export interface EmbeddedOptions {
  dir: string;
  port: number;
  persistent?: boolean;
  /** The operator chose `dir` (EMBEDDED_PG_DIR): used as it is, never moved. */
  fixed?: boolean;
  log?: (msg: string) => void;
  announce?: (dir: string, moved?: string, binaries?: string) => void;
}

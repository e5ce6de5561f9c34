import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded.js';
import type { StartOwnDatabase } from './runtime.js';

/**
 * The embedded PostgreSQL under DATA_DIR (EMBEDDED_PG_DIR), for a process of every role started
 * without DATABASE_URL (`npm start`). Only the entries of several roles import this.
 */
export const startEmbeddedDatabase: StartOwnDatabase = async (parsed, log) =>
  startEmbeddedPostgres({
    dir: parsed.EMBEDDED_PG_DIR ?? path.join(parsed.DATA_DIR, 'pg'),
    fixed: parsed.EMBEDDED_PG_DIR !== undefined,
    port: parsed.EMBEDDED_PG_PORT,
    // One line on where the database lives, and why when it is not in DATA_DIR (see embedded.ts).
    announce: (dir, moved, binaries) => log.info({ dir, port: parsed.EMBEDDED_PG_PORT, binaries }, moved ?? 'starting embedded PostgreSQL'),
  });

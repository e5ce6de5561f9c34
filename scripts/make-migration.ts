/**
 * Writes a migration for whatever the entities have that the committed migrations lack.
 * Usage: npm run migration:create -- <name>
 * It runs against a throwaway embedded PostgreSQL, so no database needs to be set up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { createOrm } from '../src/db/orm.js';
import { entities } from '../src/roles/tables.js';

const name = process.argv[2] ?? 'change';
const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-mig-'));
const pg = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: 5499, persistent: false });
try {
  const orm = await createOrm(pg.url, entities);
  await orm.migrator.up();
  const res = await orm.migrator.create(path.resolve('src/db/migrations'), false, false, name);
  console.log(res.fileName ? `wrote ${res.fileName}` : 'no changes');
  await orm.close();
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}

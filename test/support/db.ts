import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { createOrm, migrate } from '../../src/db/orm.js';
import { entities } from '../../src/roles/tables.js';
import { migrationsList } from '../../src/db/migrations/index.js';

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through `npm test`');
  return url;
}

/** The template: migrated and with pg-boss's schema, named after the migrations it holds. */
async function ensureTemplate(admin: pg.Client): Promise<string> {
  const hash = createHash('sha256').update(migrationsList.map((m) => m.name).join(',')).digest('hex').slice(0, 12);
  const name = `pb_tpl_${hash}`;
  await admin.query('select pg_advisory_lock(727100)');
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return name;
    const building = `${name}_build`;
    await admin.query(`drop database if exists ${building}`);
    await admin.query(`create database ${building}`);
    const url = withDb(adminUrl(), building);
    const orm = await createOrm(url, entities, 2);
    await migrate(orm);
    await orm.close();
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', supervise: false, schedule: false });
    await boss.start();
    await boss.stop({ graceful: false });
    // Renamed only when complete, so a crash never leaves a half-built template behind.
    await admin.query(`alter database ${building} rename to ${name}`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(727100)');
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of one test file, dropped by `drop`. */
function testDatabase(name: string): TestDatabase {
  return {
    url: withDb(adminUrl(), name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await c.end();
    },
  };
}

/** An empty database, not migrated: for a test that starts older code on it (test/platform/upgrade.test.ts). */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const name = `pb_test_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database ${name}`);
    return testDatabase(name);
  } finally {
    await admin.end();
  }
}

/** A fresh database for one test file: a copy of the template, so it starts migrated. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const template = await ensureTemplate(admin);
    const name = `pb_test_${randomBytes(6).toString('hex')}`;
    await admin.query('select pg_advisory_lock(727101)');
    try {
      await admin.query(`create database ${name} template ${template}`);
    } finally {
      await admin.query('select pg_advisory_unlock(727101)');
    }
    return testDatabase(name);
  } finally {
    await admin.end();
  }
}

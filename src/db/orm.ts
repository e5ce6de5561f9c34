import 'reflect-metadata';
import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import type { EntityClass } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

/** The classes the ORM maps: every module's and engine's, gathered by the composition root (src/roles/tables.ts). */
export type Entities = readonly EntityClass<object>[];

export function ormConfig(url: string, entities: Entities, poolMax = 10, logger?: (message: string) => void) {
  return defineConfig({
    logger: logger ?? (() => undefined),
    clientUrl: url,
    entities: [...entities],
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    // Explicit list: no file discovery, so the same code runs under jest, tsc output and bundles.
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    // job_outbox is written by SQL only (jobs/outbox.ts): no entity maps it, and a generated migration must not drop it.
    schemaGenerator: { skipTables: ['job_outbox'] },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

export async function createOrm(url: string, entities: Entities, poolMax?: number, logger?: (message: string) => void): Promise<Orm> {
  return MikroORM.init(ormConfig(url, entities, poolMax, logger));
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up();
}

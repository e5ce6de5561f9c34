import 'reflect-metadata';
import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

export function ormConfig(url: string, poolMax = 10, logger?: (message: string) => void) {
  return defineConfig({
    logger: logger ?? (() => undefined),
    clientUrl: url,
    entities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    // Explicit list: no file discovery, so the same code runs under jest, tsc output and bundles.
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

export async function createOrm(url: string, poolMax?: number, logger?: (message: string) => void): Promise<Orm> {
  return MikroORM.init(ormConfig(url, poolMax, logger));
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up();
}

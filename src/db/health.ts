import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from './sql.js';

/** Answers once the database has run a statement; throws when it cannot be reached (GET /health says 503). */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await sqlRows(em, 'select 1');
}

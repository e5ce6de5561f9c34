import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';

/** The advisory lock key of the first start: several processes may start at once on an empty database. */
const FIRST_START_LOCK = 727001;

export class OperatorRepository {
  constructor(private readonly em: EntityManager) {}

  /** Held until the transaction ends: one process at a time checks for, and creates, the first account. */
  async lockFirstStart(): Promise<void> {
    await sqlRows(this.em, 'select pg_advisory_xact_lock($1::bigint)', [FIRST_START_LOCK]);
  }
}

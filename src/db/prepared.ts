import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A hot read as a named prepared statement on the ORM's own pool. The ORM inlines parameters
 * into the SQL text, so PostgreSQL parses and plans every call; a named statement is parsed once
 * per pooled connection, its parameters are sent apart (nothing to quote), and the rows come back
 * plain, with no entity hydration or identity map. For reads outside a transaction only: the
 * statement runs on whichever pooled connection is free, not on the entity manager's transaction.
 *
 * `name` must always go with the same `text` (node-postgres refuses a name reused for other SQL).
 */
export async function preparedRows<T>(em: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = await em.getConnection().getNativeClient();
  const result = await pool.query<T & object>({ name, text, values });
  return result.rows;
}

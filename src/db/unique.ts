import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { errors, msg } from '../core/errors.js';

/**
 * A write refused by a unique index: the ORM's exception for its own writes, PostgreSQL's
 * `unique_violation` as the repositories' statements (src/db/sql.ts) raise it.
 */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException || (err as { code?: unknown } | null)?.code === '23505';
}

/**
 * Runs a write whose uniqueness was checked beforehand; when a concurrent request won the race,
 * the unique index refuses it, and the caller gets the same 422 as a sequential duplicate.
 */
export async function takenIfDuplicate<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.invalid(field, msg.taken(field));
    throw err;
  }
}

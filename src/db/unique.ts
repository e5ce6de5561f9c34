import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { errors, msg } from '../core/errors.js';

/**
 * Runs a write whose uniqueness was checked beforehand; when a concurrent request won the race,
 * the unique index refuses it, and the caller gets the same 422 as a sequential duplicate.
 */
export async function takenIfDuplicate<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw errors.invalid(field, msg.taken(field));
    throw err;
  }
}

import type { MiddlewareFn } from 'type-graphql';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { errors } from './errors.js';

/** The catalogue's 503 in place of a driver error that means the database cannot be reached. */
export function asUnavailable(err: unknown): unknown {
  return isDatabaseUnavailable(err) ? errors.unavailable() : err;
}

export const databaseUnavailableAs503: MiddlewareFn = async (_data, next) => {
  try {
    return await next();
  } catch (err) {
    throw asUnavailable(err);
  }
};

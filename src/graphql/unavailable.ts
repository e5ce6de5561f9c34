import type { MiddlewareFn } from 'type-graphql';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { errors } from '../core/errors.js';
import { asGraphQLError } from './errors.js';

/** The catalogue's 503 in place of a driver error that means the database cannot be reached. */
export function asUnavailable(err: unknown): unknown {
  return isDatabaseUnavailable(err) ? errors.unavailable() : err;
}

/**
 * Outermost of the schema's middlewares: where GraphQL meets the services, an AppError becomes its
 * GraphQL error (errors.ts), and a database that went away answers 503 whichever resolver or
 * check met it.
 */
export const appErrorsAsGraphQL: MiddlewareFn = async (_data, next) => {
  try {
    return await next();
  } catch (err) {
    throw asGraphQLError(asUnavailable(err));
  }
};

import { GraphQLError } from 'graphql';
import { isAppError, type AppError } from '../core/errors.js';

/**
 * The GraphQL surface's side of the error catalogue (core/errors.ts): an AppError becomes a
 * GraphQL error whose `extensions` carry its code, its HTTP status (Apollo and yoga answer with
 * it), its field errors and its retry hint. Converted once, where GraphQL meets the services: the
 * schema's global middleware, the auth checker and the context (schema.ts, auth.ts, http/).
 */
export function extensionsOf(e: AppError): Record<string, unknown> {
  return {
    code: e.code,
    http: { status: e.status },
    ...(e.fields ? { errors: e.fields } : {}),
    ...(e.retryAfter !== undefined ? { retry_after: e.retryAfter } : {}),
  };
}

export function toGraphQLError(e: AppError): GraphQLError {
  return new GraphQLError(e.message, { originalError: e, extensions: extensionsOf(e) });
}

/** An AppError as its GraphQL error; anything else as it is. */
export function asGraphQLError(err: unknown): unknown {
  return isAppError(err) ? toGraphQLError(err) : err;
}

/** The AppError behind an error, through GraphQL's wrapping (originalError), or null. */
export function appErrorOf(err: unknown): AppError | null {
  let cur = err as { originalError?: unknown } | null | undefined;
  for (let depth = 0; cur && depth < 10; depth++) {
    if (isAppError(cur)) return cur;
    cur = cur.originalError as typeof cur;
  }
  return null;
}

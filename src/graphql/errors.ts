import { GraphQLError } from 'graphql';

/**
 * The error catalogue. Each factory gives a stable `code` and `extensions.http.status`, so
 * GraphQL (Apollo, yoga) and /v1 (rest-mapping) answer the same status with the same message.
 * Anything thrown that is not from here is unexpected: it is masked and logged.
 */
export type FieldErrors = Record<string, string[]>;

function appError(message: string, code: string, status: number, extra: Record<string, unknown> = {}) {
  return new GraphQLError(message, { extensions: { code, http: { status }, ...extra } });
}

export const INVALID_DATA = 'The given data was invalid.';

export const errors = {
  unauthenticated: () => appError('Unauthenticated.', 'UNAUTHENTICATED', 401),
  forbidden: (message = 'This action is unauthorized.') => appError(message, 'FORBIDDEN', 403),
  notFound: () => appError('Resource not found.', 'NOT_FOUND', 404),
  paymentRequired: (message: string) => appError(message, 'PAYMENT_REQUIRED', 402),
  tooManyRequests: (message = 'Too Many Attempts.', retryAfter = 60) =>
    appError(message, 'TOO_MANY_REQUESTS', 429, { retry_after: retryAfter }),
  badRequest: (message: string) => appError(message, 'BAD_REQUEST', 400),
  validation: (fields: FieldErrors) => appError(INVALID_DATA, 'VALIDATION_FAILED', 422, { errors: fields }),
  /** The database cannot be reached (a restart, a failover): nothing was stored, send it again. */
  unavailable: () =>
    appError('The service is temporarily unavailable. Please try again shortly.', 'SERVICE_UNAVAILABLE', 503, { retry_after: 5 }),
  /** One field, one message: the common case. */
  invalid: (field: string, message: string) => errors.validation({ [field]: [message] }),
};

export function isAppError(err: unknown): err is GraphQLError {
  const status = (err as GraphQLError)?.extensions?.http as { status?: number } | undefined;
  return err instanceof GraphQLError && typeof status?.status === 'number';
}

/** Walks to the error we threw, through GraphQL's wrapping (originalError). */
export function unwrap(err: unknown): unknown {
  let cur = err as { originalError?: unknown };
  while (cur && !isAppError(cur) && cur.originalError) cur = cur.originalError as typeof cur;
  return cur;
}

/** Laravel-style field wording: `domain_id` → `domain id`, `to.0.email` stays dotted. */
export function label(path: string): string {
  return path.replace(/_/g, ' ');
}

export const msg = {
  required: (f: string) => `The ${label(f)} field is required.`,
  string: (f: string) => `The ${label(f)} must be a string.`,
  integer: (f: string) => `The ${label(f)} must be an integer.`,
  boolean: (f: string) => `The ${label(f)} field must be true or false.`,
  array: (f: string) => `The ${label(f)} must be an array.`,
  object: (f: string) => `The ${label(f)} must be an object.`,
  maxString: (f: string, n: number) => `The ${label(f)} may not be greater than ${n} characters.`,
  maxItems: (f: string, n: number) => `The ${label(f)} may not have more than ${n} items.`,
  min: (f: string, n: number) => `The ${label(f)} must be at least ${n}.`,
  max: (f: string, n: number) => `The ${label(f)} may not be greater than ${n}.`,
  in: (f: string) => `The selected ${label(f)} is invalid.`,
  email: (f: string) => `The ${label(f)} must be a valid email address.`,
  url: (f: string) => `The ${label(f)} format is invalid.`,
  taken: (f: string) => `The ${label(f)} has already been taken.`,
  requiredWith: (f: string, other: string) => `The ${label(f)} field is required when ${label(other)} is present.`,
  requiredWithout: (f: string, other: string) => `The ${label(f)} field is required when ${label(other)} is not present.`,
  requiredIf: (f: string, other: string, value: string) =>
    `The ${label(f)} field is required when ${label(other)} is ${value}.`,
};

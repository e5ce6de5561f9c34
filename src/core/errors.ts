/**
 * The error catalogue, for every surface. Services, repositories and jobs throw AppError; each
 * surface converts it once: GraphQL to an error with `extensions` (src/graphql/errors.ts), /v1 to
 * a status and a body (rest-mapping), SMTP to a reply code (modules/smtp). Anything thrown that is
 * not an AppError is unexpected: the surfaces mask and log it.
 */
export type FieldErrors = Record<string, string[]>;

export const INVALID_DATA = 'The given data was invalid.';

export class AppError extends Error {
  constructor(
    message: string,
    /** A stable name for clients (GraphQL `extensions.code`). */
    readonly code: string,
    /** The HTTP status the web surfaces answer with. */
    readonly status: number,
    /** Per-field messages of a validation failure (422), dotted paths as keys. */
    readonly fields?: FieldErrors,
    /** Seconds to wait before trying again (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

export const errors = {
  unauthenticated: () => new AppError('Unauthenticated.', 'UNAUTHENTICATED', 401),
  forbidden: (message = 'This action is unauthorized.') => new AppError(message, 'FORBIDDEN', 403),
  notFound: () => new AppError('Resource not found.', 'NOT_FOUND', 404),
  paymentRequired: (message: string) => new AppError(message, 'PAYMENT_REQUIRED', 402),
  tooManyRequests: (message = 'Too Many Attempts.', retryAfter = 60) => new AppError(message, 'TOO_MANY_REQUESTS', 429, undefined, retryAfter),
  badRequest: (message: string) => new AppError(message, 'BAD_REQUEST', 400),
  /** A request body past a limit of its size or of its shape (src/http/json-body.ts). */
  payloadTooLarge: (message: string) => new AppError(message, 'PAYLOAD_TOO_LARGE', 413),
  validation: (fields: FieldErrors) => new AppError(INVALID_DATA, 'VALIDATION_FAILED', 422, fields),
  /** The database cannot be reached (a restart, a failover): nothing was stored, send it again. */
  unavailable: (message = 'The service is temporarily unavailable. Please try again shortly.') =>
    new AppError(message, 'SERVICE_UNAVAILABLE', 503, undefined, 5),
  /** A live stream whose client read too slowly (graphql/live-queue.ts): it ends; the client subscribes again. */
  streamBehind: (limit: number) =>
    new AppError(
      `This live stream has ended: more than ${limit} events waited for the client to read them. Subscribe again, and read what was missed from the list the stream follows.`,
      'STREAM_BEHIND',
      429,
    ),
  /** One field, one message: the common case. */
  invalid: (field: string, message: string) => errors.validation({ [field]: [message] }),
};

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

/** For checks that need the database (uniqueness, ownership): gather, then throw once. */
export class FieldErrorBag {
  private readonly fields: FieldErrors = {};
  add(field: string, message: string): this {
    (this.fields[field] ??= []).push(message);
    return this;
  }
  has(field: string): boolean {
    return field in this.fields;
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw errors.validation(this.fields);
  }
}

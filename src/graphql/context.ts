import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../core/services.js';
import { errors } from '../core/errors.js';
import type { Actor } from '../core/actor.js';

/** Who is calling, as resolvers know it: the core's Actor (an account's API token here). */
export type Auth = Actor;

export interface Ctx {
  em: EntityManager;
  auth: Auth | null;
  operator: boolean;
  requestId: string;
  services: AppServices;
  /** Absolute base of this service, for links (`http://host:port`). */
  baseUrl: string;
  /** The `Idempotency-Key` request header, on either surface. */
  idempotencyKey?: string | null;
  /** `rest` when /v1 runs the operation (set by rest-mapping), for metrics; GraphQL otherwise. */
  surface?: 'rest' | 'graphql';
  /** On /graphql/stream: cuts the stream's connection (a reader that fell behind and stopped reading). */
  hangUp?: () => void;
}

/** Resolvers call services with the caller first; `@Authorized` has already checked the scope. */
export function caller(ctx: Ctx): Auth {
  if (!ctx.auth) throw errors.unauthenticated();
  return ctx.auth;
}

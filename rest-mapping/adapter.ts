import { execute, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { dropKeys, dropNulls } from './result.js';
import type { Logger } from 'pino';
import type { Ctx } from '../src/graphql/context.js';
import { appErrorOf } from '../src/graphql/errors.js';
import { readArgs } from './args.js';
import { shape } from './envelope.js';
import type { RestContract } from './types.js';
import { compileRoutes, firstSegment, type CompiledRoute, type RouteIndex } from './compiled-routes.js';
import { INVALID_DATA } from '../src/core/errors.js';

export interface Matched {
  route: CompiledRoute;
  params: Record<string, string>;
}

export interface RestAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * /v1's side of the error catalogue: the AppError behind an execution's errors (or one thrown
 * directly) as its status, `{message, errors?}` body and `retry-after` header. Anything else is
 * unexpected: a 500, logged when a logger is given.
 */
export function errorAnswer(errs: readonly unknown[], log?: Logger, requestId?: string): RestAnswer {
  for (const e of errs) {
    const err = appErrorOf(e);
    if (err) {
      const body: Record<string, unknown> = { message: err.message };
      if (err.fields) body.errors = err.fields;
      const headers: Record<string, string> = err.retryAfter ? { 'retry-after': String(err.retryAfter) } : {};
      return { status: err.status, body, headers };
    }
  }
  log?.error({ err: (errs[0] as { originalError?: unknown })?.originalError ?? errs[0], reqId: requestId }, 'unexpected error on /v1');
  return { status: 500, body: { message: 'Server Error' } };
}

/**
 * The /v1 surface. sofa-api generates its contract: for each route, the GraphQL operation it runs
 * (`buildOperationNodeForField` over the route's segment of the schema, with sofa's models, as
 * sofa's own router builds it) and the OpenAPI document. sofa does not route requests: each
 * operation is built and validated once (compiled-routes.ts), compiled by graphql-jit on first use
 * and run on the request's context, so a request costs no fetch Request/Response, no router scan,
 * no JSON round trip and no generic walk of the result.
 *
 * Dispatch is one map lookup by method and first path segment, then a scan of that segment's few
 * routes, whatever the number of resources.
 */
export function createRestSurface(schema: GraphQLSchema, contract: RestContract, log: Logger) {
  const index = compileRoutes(schema, contract);
  const run = operationRunner(schema, log);

  async function handle(
    matched: Matched,
    req: { url: URL; query: Record<string, unknown>; body: Record<string, unknown>; ctx: Ctx },
  ): Promise<RestAnswer> {
    const { route, params } = matched;
    const { variables, errors } = readArgs(route.field.args, params, req.query, req.body);
    if (Object.keys(errors).length) return { status: 422, body: { message: INVALID_DATA, errors } };
    const outcome = await run(route, req.ctx, variables);
    // An operation's errors answer in the catalogue's wire shape; anything unexpected is a logged 500.
    if ('errors' in outcome) return errorAnswer(outcome.errors, log, req.ctx.requestId);
    const payload = outcome.data;
    if (route.spec.respond) return route.spec.respond(payload);
    const status = route.spec.status ?? 200;
    const body = shape(route.spec, payload, req.url);
    if (route.spec.omitNull) dropNulls(body, new Set(route.spec.omitNull));
    if (route.hidden.size) dropKeys(body, route.hidden);
    return body === undefined ? { status: 204 } : { status, body };
  }

  return { match: routeMatcher(index), handle, routes: [...index.values()].flat() };
}

/** The route a request's method and path reach, with its path parameters decoded, or null. */
function routeMatcher(index: RouteIndex) {
  return function match(method: string, pathname: string): Matched | null {
    const rel = pathname.replace(/^\/v1/, '') || '/';
    const candidates = index.get(`${method} ${firstSegment(rel)}`);
    if (!candidates) return null;
    for (const route of candidates) {
      const m = route.regex.exec(rel);
      if (m) {
        const params: Record<string, string> = {};
        route.params.forEach((p, i) => {
          params[p] = decodeURIComponent(m[i + 1]);
        });
        return { route, params };
      }
    }
    return null;
  };
}

/** Runs a route's operation on the request's context: its root field's value, or the errors. */
function operationRunner(schema: GraphQLSchema, log: Logger) {
  /**
   * The route's operation compiled by graphql-jit into one function that walks the result's known
   * shape (a list page spends most of graphql's time resolving and completing each row's fields).
   * Compiled on the route's first call, so routes never called cost no memory; an operation jit
   * cannot compile is run by graphql's `execute`.
   */
  function compiledOf(route: CompiledRoute): CompiledQuery | null {
    if (route.compiled === undefined) {
      const compiled = compileQuery(schema, route.document, route.operationName);
      route.compiled = isCompiledQuery(compiled) ? compiled : null;
      if (!route.compiled) log.warn({ route: route.key, errors: (compiled as { errors?: unknown }).errors }, 'graphql-jit cannot compile a /v1 operation; it runs on execute');
    }
    return route.compiled;
  }

  return async function run(route: CompiledRoute, ctx: Ctx, variables: Record<string, unknown>): Promise<{ data: unknown } | { errors: readonly unknown[] }> {
    try {
      const compiled = compiledOf(route);
      if (compiled) for (const [name, value] of route.defaults) if (variables[name] === undefined) variables[name] = value;
      const result = compiled
        ? await compiled.query(undefined, ctx, variables)
        : await execute({ schema, document: route.document, contextValue: ctx, variableValues: variables, operationName: route.operationName });
      if (result.errors?.length) return { errors: result.errors };
      const data = (result.data as Record<string, unknown> | null | undefined)?.[route.field.name] ?? null;
      // A JSON scalar's value is the resolver's own object; the answer is trimmed in place below.
      return { data: route.sharesValues && data !== null ? JSON.parse(JSON.stringify(data)) : data };
    } catch (err) {
      return { errors: [err] };
    }
  };
}

export type RestSurface = ReturnType<typeof createRestSurface>;

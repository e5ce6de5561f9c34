import {
  execute,
  Kind,
  OperationTypeNode,
  typeFromAST,
  valueFromAST,
  validate,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { buildOperationNodeForField, filterSchema } from '@graphql-tools/utils';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { createSofa, useSofa } from 'sofa-api';
import { dropKeys, dropNulls, hiddenKeys, holdsObjectScalars, plainInput } from './result.js';
import type { Logger } from 'pino';
import type { Ctx } from '../src/graphql/context.js';
import { appErrorOf } from '../src/graphql/errors.js';
import { readArgs } from './args.js';
import { shape } from './envelope.js';
import type { RouteSpec, RouteTable } from './types.js';
import { INVALID_DATA } from '../src/core/errors.js';

interface CompiledRoute {
  key: string;
  spec: RouteSpec;
  field: GraphQLField<unknown, unknown>;
  regex: RegExp;
  params: string[];
  /** The route as /metrics labels it, in OpenAPI's spelling: `/v1/domains/{domain_id}`. */
  template: string;
  /** sofa's operation for the route, validated once. */
  document: DocumentNode;
  operationName: string | undefined;
  /**
   * graphql-jit's function for the operation, made on the route's first call; null: run by
   * `execute` (an operation whose variables jit would coerce otherwise than graphql does).
   */
  compiled?: CompiledQuery | null;
  /** The variables' default values, which jit leaves out for a non-null variable (`$page: Int! = 1`). */
  defaults: [string, unknown][];
  /** What sofa generated for the route's segment: its OpenAPI document (openapi.ts merges them). */
  sofa: { openAPIDocument: unknown };
  /** Keys of HIDDEN_FIELDS whose types this route's result can hold. */
  hidden: Set<string>;
  /** Whether the result can hold a custom scalar's object value (JSONObject), which is copied. */
  sharesValues: boolean;
}

export interface Matched {
  route: CompiledRoute;
  params: Record<string, string>;
}

export interface RestAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const firstSegment = (path: string) => path.split('/')[1] ?? '';

function compilePath(path: string): { regex: RegExp; params: string[] } {
  const params: string[] = [];
  const pattern = path
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) {
        params.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${pattern}/?$`), params };
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
 * operation is built and validated once here, compiled by graphql-jit on first use and run on the
 * request's context, so a request costs no fetch Request/Response, no router scan, no JSON round
 * trip and no generic walk of the result.
 *
 * Dispatch is one map lookup by method and first path segment, then a scan of that segment's few
 * routes, whatever the number of resources.
 */
export function createRestSurface(schema: GraphQLSchema, table: RouteTable, log: Logger) {
  const bySegment = new Map<string, [string, RouteSpec][]>();
  for (const [key, spec] of Object.entries(table)) {
    const seg = firstSegment(spec.path);
    bySegment.set(seg, [...(bySegment.get(seg) ?? []), [key, spec]]);
  }

  const index = new Map<string, CompiledRoute[]>();
  for (const [seg, entries] of bySegment) {
    const keys = new Set(entries.map(([k]) => k));
    // sofa decides an operation's selection from the schema it is given (which root types are
    // "models" and so selected by id only when nested): the segment's cut of the schema, as before.
    const sub = filterSchema({
      schema,
      rootFieldFilter: (op, name) => keys.has(`${op}.${name}`),
    });
    const config = {
      basePath: '/v1',
      schema: sub,
      routes: Object.fromEntries(
        entries.map(([k, s]) => [k, { method: s.method, path: s.path, responseStatus: s.status ?? 200 }]),
      ),
    };
    // The router is built for its OpenAPI document only; only the document is kept.
    const openAPIDocument = (useSofa(config) as unknown as { openAPIDocument: unknown }).openAPIDocument;
    const sofa = createSofa(config);
    const generated = { openAPIDocument };
    for (const [key, spec] of entries) {
      const [op, name] = key.split('.');
      const root = op === 'Query' ? schema.getQueryType() : schema.getMutationType();
      const field = root?.getFields()[name];
      if (!field) throw new Error(`rest-mapping: ${key} is not a field of the schema`);
      const operation = buildOperationNodeForField({
        kind: op === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
        schema: sub,
        field: name,
        models: sofa.models,
        ignore: sofa.ignore,
        circularReferenceDepth: sofa.depthLimit,
      });
      const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation] };
      const invalid = validate(schema, document);
      if (invalid.length) throw new Error(`rest-mapping: the operation of ${key} is invalid: ${invalid[0].message}`);
      const variables = operation.variableDefinitions ?? [];
      const jit = variables.every((v) => plainInput(typeFromAST(schema, v.type)));
      const route: CompiledRoute = {
        key,
        spec,
        field,
        ...compilePath(spec.path),
        template: `/v1${spec.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
        document,
        operationName: operation.name?.value,
        compiled: jit ? undefined : null,
        defaults: variables
          .filter((v) => v.defaultValue)
          .map((v) => [v.variable.name.value, valueFromAST(v.defaultValue, typeFromAST(schema, v.type) as GraphQLInputType)]),
        sofa: generated,
        hidden: hiddenKeys(field),
        sharesValues: holdsObjectScalars(field.type),
      };
      const bucket = `${spec.method} ${seg}`;
      index.set(bucket, [...(index.get(bucket) ?? []), route]);
    }
  }

  function match(method: string, pathname: string): Matched | null {
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
  }

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

  /** The route's operation on the request's context: its root field's value, or the errors. */
  async function run(route: CompiledRoute, ctx: Ctx, variables: Record<string, unknown>): Promise<{ data: unknown } | { errors: readonly unknown[] }> {
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
  }

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

  return { match, handle, routes: [...index.values()].flat() };
}

export type RestSurface = ReturnType<typeof createRestSurface>;

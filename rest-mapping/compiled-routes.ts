import {
  GraphQLObjectType,
  GraphQLSchema,
  Kind,
  OperationTypeNode,
  typeFromAST,
  valueFromAST,
  validate,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { buildOperationNodeForField, filterSchema } from '@graphql-tools/utils';
import type { CompiledQuery } from 'graphql-jit';
import { createSofa, useSofa } from 'sofa-api';
import { hiddenKeys, holdsObjectScalars, plainInput } from './result.js';
import type { RestContract, RouteSpec } from './types.js';
import { routeTableOf } from './index.js';

export interface CompiledRoute {
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
  /** Keys of the contract's hidden fields whose types this route's result can hold. */
  hidden: Set<string>;
  /** Whether the result can hold a custom scalar's object value (JSONObject), which is copied. */
  sharesValues: boolean;
}

/** Routes by method and first path segment (`GET domains`), each bucket in the route table's order. */
export type RouteIndex = Map<string, CompiledRoute[]>;

type RouteEntry = [key: string, spec: RouteSpec];

/** What sofa makes of one segment's routes, shared by them. */
interface SegmentSofa {
  sofa: ReturnType<typeof createSofa>;
  generated: { openAPIDocument: unknown };
}

export const firstSegment = (path: string) => path.split('/')[1] ?? '';

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

/** The route table's entries grouped by their path's first segment, in the table's order. */
function routesBySegment(contract: RestContract): Map<string, RouteEntry[]> {
  const bySegment = new Map<string, RouteEntry[]>();
  for (const [key, spec] of Object.entries(routeTableOf(contract))) {
    const seg = firstSegment(spec.path);
    bySegment.set(seg, [...(bySegment.get(seg) ?? []), [key, spec]]);
  }
  return bySegment;
}

function sofaOfSegment(schema: GraphQLSchema, entries: RouteEntry[]): SegmentSofa {
  const keys = new Set(entries.map(([k]) => k));
  const routes = Object.fromEntries(entries.map(([k, s]) => [k, { method: s.method, path: s.path, responseStatus: s.status ?? 200 }]));
  // sofa decides an operation's selection from its "models", which it reads from the Query fields
  // of the schema it is given: the segment's own, as a schema of them alone (the types they reach
  // are the whole schema's, not copies of them).
  const query = schema.getQueryType()!;
  const segmentQuery = new GraphQLObjectType({
    name: query.name,
    fields: () => Object.fromEntries(Object.entries(query.toConfig().fields).filter(([name]) => keys.has(`Query.${name}`))),
  });
  const sofa = createSofa({ basePath: '/v1', schema: new GraphQLSchema({ query: segmentQuery, assumeValid: true }), routes });
  let openAPIDocument: unknown;
  return {
    sofa,
    generated: {
      // Only /v1/openapi.json and the artifacts read it: made from the segment's cut of the schema
      // the first time one asks, not at every start.
      get openAPIDocument() {
        if (openAPIDocument === undefined) {
          const sub = filterSchema({ schema, rootFieldFilter: (op, name) => keys.has(`${op}.${name}`) });
          openAPIDocument = (useSofa({ basePath: '/v1', schema: sub, routes }) as unknown as { openAPIDocument: unknown }).openAPIDocument;
        }
        return openAPIDocument;
      },
    },
  };
}

/** One route: sofa's operation for its root field, validated against the whole schema, and its path's matcher. */
function compileRoute(schema: GraphQLSchema, segment: SegmentSofa, [key, spec]: RouteEntry, contract: RestContract): CompiledRoute {
  const { sofa, generated } = segment;
  const [op, name] = key.split('.');
  const root = op === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`rest-mapping: ${key} is not a field of the schema`);
  const operation = buildOperationNodeForField({
    kind: op === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
    schema,
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
  return {
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
    hidden: hiddenKeys(field, contract.hidden),
    sharesValues: holdsObjectScalars(field.type),
  };
}

/** Every route of the contract, compiled once and indexed for dispatch. */
export function compileRoutes(schema: GraphQLSchema, contract: RestContract): RouteIndex {
  const index: RouteIndex = new Map();
  for (const [seg, entries] of routesBySegment(contract)) {
    const segment = sofaOfSegment(schema, entries);
    for (const entry of entries) {
      const route = compileRoute(schema, segment, entry, contract);
      const bucket = `${route.spec.method} ${seg}`;
      index.set(bucket, [...(index.get(bucket) ?? []), route]);
    }
  }
  return index;
}

import type { GraphQLField } from 'graphql';
import type { RestContract, RouteSpec } from './types.js';
import { describeOperation, type Operation, type Schema } from './openapi-operation.js';
import { SCOPES } from '../src/core/scopes.js';
import { errorSchema, limitHeaderComponents, operationResponses, sharedResponses, successAnswer } from './openapi-answers.js';

type Doc = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; [k: string]: unknown };
};

function toOpenApiPath(path: string): string {
  return `/v1${path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The custom GraphQL scalars as OpenAPI schemas (their wire forms, src/graphql/scalars.ts). */
const SCALAR_SCHEMAS: Record<string, unknown> = {
  JSONObject: { type: 'object', additionalProperties: true },
  SendAt: {
    description: 'A Unix timestamp (integer seconds) or an ISO 8601 date-time string.',
    oneOf: [{ type: 'integer' }, { type: 'string', format: 'date-time' }],
  },
  IsoTimestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with six fractional digits' },
  PlainTimestamp: { type: 'string', description: 'UTC, YYYY-MM-DD HH:MM:SS' },
};

const SCHEME_DESCRIPTION = [
  'An account API token: `Authorization: Bearer <token>`. Each operation lists the scope it needs;',
  'a `<area>_full` scope also grants `<area>_read`. A token limited to one domain reaches that',
  "domain's data only, and is refused (403) the operations over data of no domain (their descriptions say so).",
  '',
  `Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}.`,
].join('\n');

/** What a route gives the document: its spec, GraphQL field and the sofa document of its segment. */
export type OpenApiRoute = { key: string; spec: RouteSpec; field: GraphQLField<unknown, unknown>; sofa: { openAPIDocument: unknown } };

/**
 * sofa's OpenAPI output has the paths and statuses, but not our envelopes, error answers or
 * auth, and it repeats body fields as query parameters. This completes it from the route table.
 */
export function buildOpenApi(routes: OpenApiRoute[], contract: RestContract) {
  const doc = documentFrame(contract);
  mergeSofaDocuments(doc, routes);
  dropHiddenFields(doc.components.schemas, contract.hidden);
  // sofa refers to custom scalars by $ref without defining them: every reference must resolve.
  for (const [name, schema] of Object.entries(SCALAR_SCHEMAS)) doc.components.schemas[name] ??= schema;
  doc.components.schemas.Error = errorSchema();
  doc.components.schemas.ValidationError = errorSchema(true);
  const operationIds = new Map<string, string>();
  for (const route of routes) {
    const op = doc.paths[toOpenApiPath(route.spec.path)]?.[route.spec.method.toLowerCase()];
    if (op) completeOperation(doc, op, route, contract, operationIds);
  }
  renameFields(doc.components.schemas, routes.map((r) => r.spec), (spec) => doc.paths[toOpenApiPath(spec.path)]?.[spec.method.toLowerCase()]);
  return doc;
}

/** The document before any route: info, the resources' tags, the shared answers, auth and headers. */
function documentFrame(contract: RestContract) {
  return {
    openapi: '3.0.3',
    info: { title: 'Postbox /v1', version: '1.0.0', description: 'Generated from the GraphQL schema by sofa-api.' },
    tags: contract.resources.map(({ name, description }) => ({ name, description })) as { name: string; description?: string }[],
    paths: {} as Record<string, Record<string, Operation>>,
    components: {
      schemas: {} as Record<string, unknown>,
      responses: sharedResponses(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: SCHEME_DESCRIPTION } },
      headers: limitHeaderComponents(),
    },
    security: [{ bearer: [] }],
  };
}

type OpenApiDoc = ReturnType<typeof documentFrame>;

/** Each segment's sofa document once: its component schemas and its paths, under /v1. */
function mergeSofaDocuments(doc: OpenApiDoc, routes: OpenApiRoute[]) {
  const seen = new Set<unknown>();
  for (const { sofa } of routes) {
    if (seen.has(sofa)) continue;
    seen.add(sofa);
    const part = sofa.openAPIDocument as Doc;
    Object.assign(doc.components.schemas, part.components?.schemas ?? {});
    for (const [path, ops] of Object.entries(part.paths ?? {})) {
      // sofa's own subscription routes (/webhook, /webhook/{id}) are never served; /webhooks is ours.
      if (/^\/webhook(\/[^/]+)?$/.test(path)) continue;
      // sofa leaves its basePath out of the document's paths.
      doc.paths[`/v1${path}`] = { ...(doc.paths[`/v1${path}`] ?? {}), ...ops };
    }
  }
}

/** The contract's hidden fields (`Type.field`) leave their component schemas. */
function dropHiddenFields(schemas: Record<string, unknown>, hidden: RestContract['hidden']) {
  for (const entry of hidden) {
    const [type, field] = entry.split('.');
    const schema = schemas[type] as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (schema?.properties) delete schema.properties[field];
    if (schema?.required) schema.required = schema.required.filter((r) => r !== field);
  }
}

/**
 * One route's operation as the server answers it: the body without path parameters, no body
 * field repeated as a query parameter, the description of openapi-operation.ts, the envelope of
 * its success answer and the shared error answers.
 */
function completeOperation(doc: OpenApiDoc, op: Operation, { key, spec, field }: OpenApiRoute, contract: RestContract, operationIds: Map<string, string>) {
  const bodySchema = withoutPathParams(op, spec);
  const status = String(spec.status ?? 200);
  const generated = (op.responses?.[status] ?? op.responses?.['200']) as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  const result = generated?.content?.['application/json']?.schema ?? {};
  const bodyFields = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
  if (bodyFields.length) op.parameters = (op.parameters ?? []).filter((p) => !(p.in === 'query' && bodyFields.includes(p.name)));
  describeOperation(op, key, spec, field, contract.resources);
  const clash = operationIds.get(op.operationId!);
  if (clash) throw new Error(`rest-mapping: ${key} and ${clash} would share the operationId ${op.operationId}`);
  operationIds.set(op.operationId!, key);
  for (const tag of op.tags ?? []) if (!doc.tags.some((t) => t.name === tag)) doc.tags.push({ name: tag });
  const success = successAnswer(doc.components.schemas, spec, result);
  if (spec.arrayBody && op.requestBody?.content?.['application/json']) {
    // The wire body is the list itself, not an object holding it.
    const inner = bodySchema?.properties?.[spec.arrayBody] ?? { type: 'array', items: { type: 'object' } };
    op.requestBody.content['application/json'] = { schema: inner as Schema };
  }
  op.responses = operationResponses(spec, success);
}

/** The operation's JSON body schema without the path's parameters (the path carries them); no body at all when nothing is left. */
function withoutPathParams(op: Operation, spec: RouteSpec): Schema | undefined {
  const pathParams = [...spec.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as
    | { properties?: Record<string, unknown>; required?: string[] }
    | undefined;
  for (const p of pathParams) {
    if (bodySchema?.properties) delete bodySchema.properties[p];
    if (bodySchema?.required) bodySchema.required = bodySchema.required.filter((r) => r !== p);
  }
  // OpenAPI 3.0 wants a `required` list to hold at least one name.
  if (bodySchema?.required?.length === 0) delete bodySchema.required;
  if (bodySchema?.properties && Object.keys(bodySchema.properties).length === 0) delete op.requestBody;
  return bodySchema as Schema | undefined;
}

/**
 * A route's `rename` (`two_fa` → `2fa`) applies anywhere in its answer: the same names change in
 * the component schemas its success answer reaches.
 */
function renameFields(schemas: Record<string, unknown>, specs: RouteSpec[], opOf: (spec: RouteSpec) => Operation | undefined) {
  for (const spec of specs) {
    if (!spec.rename) continue;
    const reached = new Set<string>();
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const name = v.split('/').pop()!;
          if (!reached.has(name)) {
            reached.add(name);
            walk(schemas[name]);
          }
        } else walk(v);
      }
    };
    const op = opOf(spec);
    walk(op?.responses?.[String(spec.status ?? 200)]);
    for (const name of reached) {
      const schema = schemas[name] as Schema | undefined;
      for (const [from, to] of Object.entries(spec.rename)) {
        if (!schema?.properties || !(from in schema.properties)) continue;
        schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k === from ? to : k, v]));
        if (schema.required) schema.required = schema.required.map((r) => (r === from ? to : r));
      }
    }
  }
}

import type { GraphQLField, GraphQLSchema } from 'graphql';
import type { RouteSpec } from './types.js';
import { HIDDEN_FIELDS } from './hidden.js';
import { RESOURCE_TAGS } from './tags.js';
import { describeOperation, type Operation, type Schema } from './openapi-operation.js';
import { SCOPES } from '../src/core/scopes.js';

type Doc = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; [k: string]: unknown };
};

const errorSchema = (withErrors = false) => ({
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    ...(withErrors
      ? { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } }
      : {}),
  },
});

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** Every page as `{url, label, active}` in `meta.links` (every full pager, COMPAT.md). */
const META_LINKS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['label', 'active'],
    properties: { url: { type: 'string', nullable: true }, label: { type: 'string' }, active: { type: 'boolean' } },
  },
};

/**
 * `meta` is the result type's own (activity's has no last_page/total), else the full pager's;
 * the answer adds `meta.path` (and `meta.links` where the route says so) and absolute `links`.
 */
const pagedSchema = (item: unknown, meta: unknown = { $ref: '#/components/schemas/PageMeta' }, metaLinks = false) => ({
  type: 'object',
  required: ['data', 'links', 'meta'],
  properties: {
    data: item,
    links: {
      type: 'object',
      required: ['first', 'last', 'prev', 'next'],
      properties: Object.fromEntries(['first', 'last', 'prev', 'next'].map((k) => [k, { type: 'string', nullable: true }])),
    },
    meta: {
      allOf: [
        meta,
        {
          type: 'object',
          required: ['path'],
          properties: { path: { type: 'string' }, ...(metaLinks ? { links: META_LINKS } : {}) },
        },
      ],
    },
  },
});

/** The meta has `last_page`: the full pager, whose answer also carries `meta.links` (envelope.ts). */
function isFullPager(meta: Schema | undefined, doc: Doc): boolean {
  if (!meta) return true; // pagedSchema's default meta is PageMeta
  const ref = (meta as { $ref?: string } | undefined)?.$ref;
  const schema = (ref ? doc.components?.schemas?.[ref.split('/').pop()!] : meta) as Schema | undefined;
  return Boolean(schema?.properties?.last_page);
}

const EXTRA: Record<number, string> = { 402: 'PaymentRequired', 429: 'TooManyRequests' };

/** Headers every authenticated answer carries (src/http/ratelimit.ts). */
const LIMIT_HEADERS: Record<string, string> = {
  'x-ratelimit-limit': 'Requests the token may make per rate window',
  'x-ratelimit-remaining': 'Requests left in the current window',
  'x-ratelimit-reset': 'When the window ends (Unix seconds)',
  'x-apiquota-remaining': "Requests left in the account's daily quota",
  'x-apiquota-reset': 'When the daily quota starts again (next UTC midnight, ISO 8601)',
};
const headerKey = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

function withLimitHeaders(response: Record<string, unknown>): Record<string, unknown> {
  const headers = Object.fromEntries(Object.keys(LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${headerKey(name)}` }]));
  return { ...response, headers: { ...((response.headers as object) ?? {}), ...headers } };
}

function toOpenApiPath(path: string): string {
  return `/v1${path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * sofa's OpenAPI output has the paths and statuses, but not our envelopes, error answers or
 * auth, and it repeats body fields as query parameters. This completes it from the route table.
 */
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

export function buildOpenApi(
  routes: { key: string; spec: RouteSpec; field: GraphQLField<unknown, unknown>; sofa: { openAPIDocument: unknown } }[],
  _schema: GraphQLSchema,
) {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Postbox /v1', version: '1.0.0', description: 'Generated from the GraphQL schema by sofa-api.' },
    tags: RESOURCE_TAGS.map(({ name, description }) => ({ name, description })) as { name: string; description?: string }[],
    paths: {} as Record<string, Record<string, Operation>>,
    components: {
      schemas: {} as Record<string, unknown>,
      responses: {
        Unauthenticated: { description: 'Missing, unknown or paused token', ...json({ $ref: '#/components/schemas/Error' }) },
        Forbidden: { description: 'Missing scope, or a token limited to another domain', ...json({ $ref: '#/components/schemas/Error' }) },
        NotFound: { description: 'Resource not found', ...json({ $ref: '#/components/schemas/Error' }) },
        Invalid: { description: 'The given data was invalid', ...json({ $ref: '#/components/schemas/ValidationError' }) },
        PaymentRequired: { description: 'Not enough credits; the message names how many are needed', ...json({ $ref: '#/components/schemas/Error' }) },
        TooManyRequests: { description: 'Over the rate limit or the daily API quota; see retry-after', ...json({ $ref: '#/components/schemas/Error' }) },
        Unavailable: {
          description: 'The database cannot be reached right now (a restart, a failover); nothing was stored: send it again after retry-after',
          ...json({ $ref: '#/components/schemas/Error' }),
        },
      },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: SCHEME_DESCRIPTION } },
      headers: Object.fromEntries(Object.entries(LIMIT_HEADERS).map(([name, description]) => [headerKey(name), { description, schema: { type: 'string' } }])),
    },
    security: [{ bearer: [] }],
  };
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
  for (const hidden of HIDDEN_FIELDS) {
    const [type, field] = hidden.split('.');
    const schema = doc.components.schemas[type] as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (schema?.properties) delete schema.properties[field];
    if (schema?.required) schema.required = schema.required.filter((r) => r !== field);
  }
  // sofa refers to custom scalars by $ref without defining them: every reference must resolve.
  for (const [name, schema] of Object.entries(SCALAR_SCHEMAS)) doc.components.schemas[name] ??= schema;
  doc.components.schemas.Error = errorSchema();
  doc.components.schemas.ValidationError = errorSchema(true);
  const operationIds = new Map<string, string>();
  for (const { key, spec, field } of routes) {
    const op = doc.paths[toOpenApiPath(spec.path)]?.[spec.method.toLowerCase()];
    if (!op) continue;
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
    const status = String(spec.status ?? 200);
    const generated = (op.responses?.[status] ?? op.responses?.['200']) as
      | { content?: Record<string, { schema?: unknown }> }
      | undefined;
    const result = generated?.content?.['application/json']?.schema ?? {};
    // A paged result is a `$ref` to its page type (DomainPage): its data and meta are read there.
    const ref = (result as Schema).$ref;
    const page = (ref ? doc.components.schemas[ref.split('/').pop()!] : result) as Schema | undefined;
    const bodyFields = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    if (bodyFields.length) op.parameters = (op.parameters ?? []).filter((p) => !(p.in === 'query' && bodyFields.includes(p.name)));
    describeOperation(op, key, spec, field);
    const clash = operationIds.get(op.operationId!);
    if (clash) throw new Error(`rest-mapping: ${key} and ${clash} would share the operationId ${op.operationId}`);
    operationIds.set(op.operationId!, key);
    for (const tag of op.tags ?? []) if (!doc.tags.some((t) => t.name === tag)) doc.tags.push({ name: tag });
    const success =
      spec.envelope === 'none'
        ? { description: 'No content' }
        : {
            description: 'OK',
            ...json(
              spec.envelope === 'raw'
                ? result
                : spec.envelope === 'paged'
                  ? pagedSchema(page?.properties?.data ?? {}, page?.properties?.meta, isFullPager(page?.properties?.meta, doc))
                  : { type: 'object', required: ['data'], properties: { data: result } },
            ),
          };
    if (spec.arrayBody && op.requestBody?.content?.['application/json']) {
      // The wire body is the list itself, not an object holding it.
      const inner = bodySchema?.properties?.[spec.arrayBody] ?? { type: 'array', items: { type: 'object' } };
      op.requestBody.content['application/json'] = { schema: inner as Schema };
    }
    op.responses = {
      [status]: withLimitHeaders((spec.responseDoc ?? success) as Record<string, unknown>),
      '401': { $ref: '#/components/responses/Unauthenticated' },
      '403': { $ref: '#/components/responses/Forbidden' },
      '404': { $ref: '#/components/responses/NotFound' },
      '422': { $ref: '#/components/responses/Invalid' },
      // Every route is behind the per-token rate limit and the daily quota (src/http/ratelimit.ts).
      '429': { $ref: '#/components/responses/TooManyRequests' },
      '503': { $ref: '#/components/responses/Unavailable' },
      ...Object.fromEntries((spec.extraErrors ?? []).map((code) => [String(code), { $ref: `#/components/responses/${EXTRA[code]}` }])),
    };
  }
  renameFields(doc.components.schemas, routes.map((r) => r.spec), (spec) => doc.paths[toOpenApiPath(spec.path)]?.[spec.method.toLowerCase()]);
  return doc;
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

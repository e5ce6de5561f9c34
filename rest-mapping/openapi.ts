import type { GraphQLSchema } from 'graphql';
import type { RouteSpec } from './types.js';

type Doc = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; [k: string]: unknown };
};
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
  [k: string]: unknown;
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

const pagedSchema = (item: unknown) => ({
  type: 'object',
  properties: {
    data: item,
    links: {
      type: 'object',
      properties: Object.fromEntries(['first', 'last', 'prev', 'next'].map((k) => [k, { type: 'string', nullable: true }])),
    },
    meta: { $ref: '#/components/schemas/PageMeta' },
  },
});

function toOpenApiPath(path: string): string {
  return `/v1${path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * sofa's OpenAPI output has the paths and statuses, but not our envelopes, error answers or
 * auth, and it repeats body fields as query parameters. This completes it from the route table.
 */
export function buildOpenApi(routes: { spec: RouteSpec; sofa: { openAPIDocument: unknown } }[], _schema: GraphQLSchema) {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Postbox /v1', version: '1.0.0', description: 'Generated from the GraphQL schema by sofa-api.' },
    paths: {} as Record<string, Record<string, Operation>>,
    components: {
      schemas: {} as Record<string, unknown>,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
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
      if (path.startsWith('/v1/webhook')) continue; // sofa's subscription routes are never served
      doc.paths[path] = { ...(doc.paths[path] ?? {}), ...ops };
    }
  }
  for (const { spec } of routes) {
    const op = doc.paths[toOpenApiPath(spec.path)]?.[spec.method.toLowerCase()];
    if (!op) continue;
    const status = String(spec.status ?? 200);
    const generated = (op.responses?.[status] ?? op.responses?.['200']) as
      | { content?: Record<string, { schema?: unknown }> }
      | undefined;
    const result = generated?.content?.['application/json']?.schema ?? {};
    const bodyFields = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    if (bodyFields.length) op.parameters = (op.parameters ?? []).filter((p) => !(p.in === 'query' && bodyFields.includes(p.name)));
    const success =
      spec.envelope === 'none'
        ? { description: 'No content' }
        : {
            description: 'OK',
            ...json(
              spec.envelope === 'raw'
                ? result
                : spec.envelope === 'paged'
                  ? pagedSchema((result as { properties?: { data?: unknown } }).properties?.data ?? {})
                  : { type: 'object', properties: { data: result } },
            ),
          };
    op.responses = {
      [status]: success,
      '401': { description: 'Unauthenticated', ...json(errorSchema()) },
      '403': { description: 'Missing scope, or another domain', ...json(errorSchema()) },
      '404': { description: 'Resource not found', ...json(errorSchema()) },
      '422': { description: 'The given data was invalid', ...json(errorSchema(true)) },
    };
  }
  return doc;
}

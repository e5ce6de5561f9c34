import type { RouteSpec } from './types.js';
import type { Schema } from './openapi-operation.js';

/** The body of an error answer: `{message}`, with `errors` by field for invalid data. */
export const errorSchema = (withErrors = false) => ({
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

/** The error answers every operation refers to (`#/components/responses/...`). */
export function sharedResponses() {
  return {
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
  };
}

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
function isFullPager(meta: Schema | undefined, schemas: Record<string, unknown>): boolean {
  if (!meta) return true; // pagedSchema's default meta is PageMeta
  const ref = (meta as { $ref?: string } | undefined)?.$ref;
  const schema = (ref ? schemas[ref.split('/').pop()!] : meta) as Schema | undefined;
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

/** The rate-limit headers as components, which every success answer refers to. */
export function limitHeaderComponents() {
  return Object.fromEntries(Object.entries(LIMIT_HEADERS).map(([name, description]) => [headerKey(name), { description, schema: { type: 'string' } }]));
}

/** The success answer in the route's envelope: none, the result itself, a page, or `{data}`. */
export function successAnswer(schemas: Record<string, unknown>, spec: RouteSpec, result: unknown) {
  if (spec.envelope === 'none') return { description: 'No content' };
  // A paged result is a `$ref` to its page type (DomainPage): its data and meta are read there.
  const ref = (result as Schema).$ref;
  const page = (ref ? schemas[ref.split('/').pop()!] : result) as Schema | undefined;
  return {
    description: 'OK',
    ...json(
      spec.envelope === 'raw'
        ? result
        : spec.envelope === 'paged'
          ? pagedSchema(page?.properties?.data ?? {}, page?.properties?.meta, isFullPager(page?.properties?.meta, schemas))
          : { type: 'object', required: ['data'], properties: { data: result } },
    ),
  };
}

/** The route's answers: its success answer with the rate-limit headers, and the error answers it can give. */
export function operationResponses(spec: RouteSpec, success: Record<string, unknown>): Record<string, unknown> {
  return {
    [String(spec.status ?? 200)]: withLimitHeaders((spec.responseDoc ?? success) as Record<string, unknown>),
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

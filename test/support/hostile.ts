/**
 * Malformed /v1 requests generated from the committed OpenAPI document (schema/openapi.json), so
 * every documented operation, parameter and body field gets hostile input without a list to keep
 * up by hand. Deterministic for a seed, and capped per operation by a budget: the bench runs
 * thousands of cases, `npm test` a bounded sample of the same generator.
 */

export interface HostileCase {
  method: string;
  /** The path under the server root, parameters filled in (`/v1/token/x`). */
  path: string;
  /** Raw query string without `?`, sent as is (hostile encodings included). */
  query?: string;
  /** The body, built when sent (some are megabytes): `body` goes out as JSON, `rawBody` byte for byte. */
  build?: () => Payload;
  /** Content-Type of `rawBody`; null sends none. application/json when absent. */
  contentType?: string | null;
  /** The one status the case must get (a body over the route's limit must be 413). */
  expect?: number;
  /** What kind of malformation: groups cases in figures and in checksum batches. */
  kind: Kind;
  label: string;
}

export interface Payload {
  body?: unknown;
  rawBody?: string | Buffer;
}

export type Kind = 'type' | 'unicode' | 'huge' | 'limit' | 'missing' | 'extra' | 'json' | 'content-type' | 'query' | 'path';

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
interface Operation {
  parameters?: { name: string; in: 'query' | 'path' | 'header'; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  example?: unknown;
  $ref?: string;
}

export interface HostileOptions {
  /** Most cases per operation; the sample keeps every kind represented. */
  budget: number;
  seed?: number;
  /** The body limit of a route (src/http/body-limits.ts), for the just-above-the-limit case. */
  bodyLimit: (method: string, path: string) => number;
  /** Real ids for path parameters and `*_id` body fields, so validation runs past the lookup. */
  ids?: Record<string, string>;
  /** Path parameters of these methods get `unknownid` instead, so the sweep does not delete its own fixtures. */
  keepIdsFor?: string[];
}

type Partial = Omit<HostileCase, 'method' | 'path'> & { path?: string };

/** mulberry32: small, seedable, good enough to sample cases. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KB = 1024;
const UNICODE = [
  '\u{1F4A5}\u{1F9D1}\u200D\u{1F4BB}', // emoji, a ZWJ sequence
  '\u202Eevil\u202C\u200F\u061C', // RTL override and marks
  `e${'\u0301'.repeat(200)}`, // stacked combining marks
  'a\u0000b', // NUL
  '\uFFFF\uFFFE\uFEFF', // noncharacters and a BOM
  '\u0085\u2028\u2029\r\n', // line separators
];
/** Lone surrogates can only travel as JSON escapes; overlong UTF-8 only as raw bytes. */
const ESCAPED_SURROGATES = ['"\\ud800"', '"x\\udfffy"'];
const OVERLONG = [Buffer.from([0xc0, 0xaf]), Buffer.from([0xe0, 0x80, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff, 0xfe])];
const PATH_IDS = ['%00', 'a%00b', '..%2F..%2Fgraphql', 'x'.repeat(300), '%F0%9F%92%A5', "'%20OR%201%3D1--", '%E0%A4%A', '%25', '1%20union%20select%201'];

export function resolve(doc: OpenApiDoc, s: Schema | undefined): Schema | undefined {
  let seen = 0;
  while (s?.$ref && seen++ < 10) s = doc.components.schemas[s.$ref.split('/').pop()!];
  return s;
}

/** A plausible value for a field, from its example, its name and its type. */
function sample(doc: OpenApiDoc, name: string, s0: Schema | undefined, ids: Record<string, string>, depth = 0): unknown {
  const s = resolve(doc, s0);
  if (!s || depth > 5) return undefined;
  if (s.example !== undefined) return s.example;
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case 'string':
      if (ids[name]) return ids[name];
      if (/email/.test(name)) return 'sweep@example.com';
      if (/url/.test(name)) return 'https://example.com/sweep';
      return name.endsWith('_id') ? 'unknownid' : 'sweep';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array': {
      const item = sample(doc, name, s.items, ids, depth + 1);
      return item === undefined ? [] : [item];
    }
    default: {
      if (!s.properties) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties)) {
        const value = sample(doc, k, v, ids, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
  }
}

/** Values of every JSON type but the declared one, plus values the type allows but a field should not. */
function wrongValues(doc: OpenApiDoc, s0: Schema | undefined, valid: unknown): unknown[] {
  const s = resolve(doc, s0);
  switch (s?.type) {
    case 'string':
      return s.enum ? ['not_a_member', 0, null, [s.enum[0]]] : [123, -1.5, true, {}, [], ['x'], null, '', ' '];
    case 'integer':
    case 'number':
      return ['1', 'abc', '1e999', -1, 0, 1.5, 1e308, 2 ** 53 + 1, true, null, [], {}];
    case 'boolean':
      return ['true', 'false', 1, 0, null, {}, []];
    case 'array':
      return [{}, 'x', 1, null, [null], [{ $gt: '' }], [[valid]], Array.from({ length: 10_000 }, (_, i) => (Array.isArray(valid) && valid[0] !== undefined ? valid[0] : `x${i}`))];
    case 'object':
    case undefined:
      return [[], 'x', 1, true, null, { $where: '1' }];
    default:
      return [null];
  }
}

interface Field {
  path: (string | number)[];
  schema: Schema;
  required: boolean;
}

/** Every field of a body, nested objects and the first item of object arrays included. */
function fieldsOf(doc: OpenApiDoc, s0: Schema | undefined, prefix: (string | number)[] = [], depth = 0): Field[] {
  const s = resolve(doc, s0);
  if (!s || depth > 3) return [];
  if (s.type === 'array') return fieldsOf(doc, s.items, [...prefix, 0], depth + 1);
  const out: Field[] = [];
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const path = [...prefix, k];
    out.push({ path, schema: v, required: (s.required ?? []).includes(k) });
    out.push(...fieldsOf(doc, v, path, depth + 1));
  }
  return out;
}

function setAt(base: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = typeof key === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

const short = (v: unknown) => {
  const text = v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 30)}…(${text.length})` : text;
};

/** The raw JSON of `body` with one string field replaced by a raw token (escapes or bytes). */
function withRaw(body: unknown, path: (string | number)[], raw: string | Buffer): Buffer {
  const marker = 'SWEEP_RAW_MARKER';
  const text = JSON.stringify(setAt(body, path, marker));
  const [before, after] = text.split(`"${marker}"`);
  return Buffer.concat([Buffer.from(before), Buffer.isBuffer(raw) ? Buffer.concat([Buffer.from('"'), raw, Buffer.from('"')]) : Buffer.from(raw), Buffer.from(after ?? '')]);
}

function bodyCases(doc: OpenApiDoc, method: string, path: string, schema: Schema, opts: HostileOptions): Partial[] {
  const ids = opts.ids ?? {};
  const base = sample(doc, 'body', schema, ids) ?? {};
  const fields = fieldsOf(doc, schema);
  const out: Partial[] = [];
  const named = (p: (string | number)[]) => p.join('.');
  for (const f of fields) {
    const valid = sample(doc, String(f.path[f.path.length - 1]), f.schema, ids);
    for (const v of wrongValues(doc, f.schema, valid)) out.push({ kind: 'type', build: () => ({ body: setAt(base, f.path, v) }), label: `${named(f.path)}=${short(v)}` });
    if (resolve(doc, f.schema)?.type !== 'string') continue;
    out.push({ kind: 'huge', build: () => ({ body: setAt(base, f.path, 'x'.repeat(100 * KB)) }), label: `${named(f.path)}=100KB` });
    for (const u of UNICODE) out.push({ kind: 'unicode', build: () => ({ body: setAt(base, f.path, u) }), label: `${named(f.path)}=${short(u)}` });
    for (const e of ESCAPED_SURROGATES) out.push({ kind: 'unicode', build: () => ({ rawBody: withRaw(base, f.path, e) }), label: `${named(f.path)}=${e}` });
    for (const b of OVERLONG) out.push({ kind: 'unicode', build: () => ({ rawBody: withRaw(base, f.path, b) }), label: `${named(f.path)}=bytes ${b.toString('hex')}` });
    if (f.required) out.push({ kind: 'missing', build: () => ({ body: setAt(base, f.path, undefined, true) }), label: `without ${named(f.path)}` });
    if (f.path.length > 1) out.push({ kind: 'extra', build: () => ({ body: setAt(base, [...f.path.slice(0, -1), 'sweep_unknown'], 1) }), label: `unknown field beside ${named(f.path)}` });
  }
  for (const f of fields) if (f.required && resolve(doc, f.schema)?.type !== 'string') out.push({ kind: 'missing', build: () => ({ body: setAt(base, f.path, undefined, true) }), label: `without ${named(f.path)}` });
  const baseText = JSON.stringify(base);
  out.push(
    { kind: 'missing', build: () => ({ body: Array.isArray(base) ? [] : {} }), label: 'every field missing' },
    { kind: 'missing', build: () => ({ body: Array.isArray(base) ? [{}] : base }), label: Array.isArray(base) ? 'an empty item' : 'the plausible body' },
    {
      kind: 'extra',
      build: () => ({ body: Array.isArray(base) ? base.map((b) => ({ ...(b as object), sweep_unknown: true })) : { ...(base as object), sweep_unknown: { a: [1] } } }),
      label: 'unknown top-level field',
    },
    { kind: 'extra', build: () => ({ rawBody: baseText.replace(/^\{/, '{"__proto__":{"admin":true},') }), label: '__proto__ key' },
    { kind: 'extra', build: () => ({ rawBody: baseText.replace(/^\{/, '{"constructor":{"prototype":{"admin":true}},') }), label: 'constructor.prototype key' },
    { kind: 'limit', build: () => ({ rawBody: Buffer.from(JSON.stringify({ pad: 'x'.repeat(opts.bodyLimit(method, path)) })) }), expect: 413, label: 'body just over the route limit' },
  );
  const firstKey = Object.keys(Array.isArray(base) ? {} : (base as object))[0] ?? 'a';
  const broken: [string, () => string | Buffer][] = [
    ['truncated', () => baseText.slice(0, Math.max(1, Math.floor(baseText.length / 2)))],
    ['trailing comma', () => baseText.replace(/([}\]])$/, ',$1')],
    ['single quotes', () => baseText.replace(/"/g, "'")],
    ['NaN value', () => `{"${firstKey}":NaN}`],
    ['Infinity value', () => `{"${firstKey}":-Infinity}`],
    ['bare number', () => '1'],
    ['bare array', () => '[1,2]'],
    ['bare string', () => '"body"'],
    ['bare null', () => 'null'],
    ['bare true', () => 'true'],
    ['BOM before the JSON', () => `\uFEFF${baseText}`],
    ['two documents', () => `${baseText}${baseText}`],
    ['duplicate keys', () => baseText.replace(/^\{/, `{"${firstKey}":[{"x":1}],`)],
    ['comment', () => `/* c */${baseText}`],
    ['10,000 nested arrays', () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['10,000 nested objects', () => `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['10,000 nested in a field', () => `{"${firstKey}":${'['.repeat(10_000)}${']'.repeat(10_000)}}`],
    ['invalid UTF-8', () => Buffer.concat([Buffer.from(`{"${firstKey}":"`), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('"}')])],
    ['UTF-16 body', () => Buffer.from(baseText, 'utf16le')],
    ['unquoted key', () => `{${firstKey}:1}`],
    ['control character in a string', () => `{"${firstKey}":"a\u0001\nb"}`],
  ];
  for (const [label, raw] of broken) out.push({ kind: 'json', build: () => ({ rawBody: raw() }), label });
  const contentTypes: [string, string | null][] = [
    ['no content-type', null],
    ['text/plain', 'text/plain'],
    ['form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart without boundary', 'multipart/form-data'],
    ['json with utf-16 charset', 'application/json; charset=utf-16'],
    ['application/jsonx', 'application/jsonx'],
    ['garbage content-type', '%%%;;;=='],
  ];
  for (const [label, ct] of contentTypes) out.push({ kind: 'content-type', build: () => ({ rawBody: baseText }), contentType: ct, label });
  out.push({ kind: 'content-type', build: () => ({ rawBody: '' }), label: 'empty body with application/json' });
  return out;
}

function queryCases(doc: OpenApiDoc, params: NonNullable<Operation['parameters']>): Partial[] {
  const out: Partial[] = [];
  const q = params.filter((p) => p.in === 'query');
  for (const p of q) {
    const type = resolve(doc, p.schema)?.type;
    const n = type === 'array' ? `${p.name}[]` : p.name;
    const values =
      type === 'integer' ? ['abc', '1.5', '-1', '0', '1e999', '99999999999999999999', '0x10', '%20'] : type === 'boolean' ? ['maybe', '2', 'TRUE', '1'] : type === 'array' ? ['not_a_member', ''] : ['%00', '%F0%9F%92%A5', '%E2%80%AE', `${'%41'.repeat(1500)}`];
    for (const v of values) out.push({ kind: 'query', query: `${n}=${v}`, label: `${n}=${v.slice(0, 40)}` });
    const raw = [
      `${p.name}=`,
      `${p.name}`,
      `${p.name}=${'x'.repeat(6000)}`,
      `${p.name}[]=1`,
      `${p.name}[b]=1`,
      `${p.name}[0][b][c]=1`,
      `${p.name}${'[b]'.repeat(30)}=1`,
      `${p.name}=1&${p.name}=2`,
      `${p.name}=%00`,
      `${p.name}=%E0%A4%A`,
      `${p.name}=%`,
      `${p.name}[${'9'.repeat(12)}]=1`,
      Array.from({ length: 200 }, (_, i) => `${p.name}[${i}]=x`).join('&'),
    ];
    for (const r of raw) out.push({ kind: 'query', query: r, label: r.length > 60 ? `${r.slice(0, 40)}…(${r.length})` : r });
  }
  out.push(
    { kind: 'query', query: 'sweep_unknown=1&__proto__[x]=1&constructor[prototype][x]=1', label: 'unknown and prototype keys' },
    { kind: 'query', query: '%E0%A4%A=1&%00=2', label: 'broken key encodings' },
    { kind: 'query', query: Array.from({ length: 1000 }, (_, i) => `k${i}=1`).join('&'), label: '1,000 parameters' },
  );
  return out;
}

/** Every malformed case, for every operation of the document, within the budget per operation. */
export function hostileCases(doc: OpenApiDoc, opts: HostileOptions): { operation: string; cases: HostileCase[] }[] {
  const random = seeded(opts.seed ?? 1);
  const keep = new Set(opts.keepIdsFor ?? ['GET', 'POST', 'PUT']);
  const out: { operation: string; cases: HostileCase[] }[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(ops)) {
      const method = verb.toUpperCase();
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const fill = (name: string) => (keep.has(method) && opts.ids?.[name]) || 'unknownid';
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => fill(name));
      const schema = op.requestBody?.content['application/json']?.schema;
      const partial: Partial[] = [...(schema ? bodyCases(doc, method, path, schema, opts) : []), ...queryCases(doc, params)];
      for (const name of pathParams) {
        for (const id of PATH_IDS) {
          const hostile = template.replace(/\{([^}]+)\}/g, (_, n: string) => (n === name ? id : fill(n)));
          partial.push({ kind: 'path', label: `${name}=${id.slice(0, 40)}`, path: hostile });
        }
      }
      const cases = partial.map((c) => ({ ...c, method, path: c.path ?? path, label: `${method} ${template} ${c.kind}: ${c.label}` }));
      out.push({ operation: `${method} ${template}`, cases: pick(cases, opts.budget, random) });
    }
  }
  return out;
}

/** A seeded sample that keeps every kind: shuffled within each kind, then taken round-robin. */
function pick(cases: HostileCase[], budget: number, random: () => number): HostileCase[] {
  if (cases.length <= budget) return cases;
  const byKind = new Map<Kind, HostileCase[]>();
  for (const c of cases) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  for (const list of byKind.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
  const out: HostileCase[] = [];
  const lists = [...byKind.values()];
  for (let i = 0; out.length < budget; i++) {
    let took = false;
    for (const list of lists) {
      if (i < list.length && out.length < budget) {
        out.push(list[i]);
        took = true;
      }
    }
    if (!took) break;
  }
  // The over-limit case is cheap to check and proves the 413 shape on every route: always kept.
  const limit = cases.find((c) => c.kind === 'limit');
  if (limit && !out.includes(limit)) out[out.length - 1] = limit;
  return out;
}

import { buildSchema, getNamedType, isInputObjectType, isListType, isNonNullType, isScalarType, isEnumType, type GraphQLArgument, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { seeded } from './hostile.js';
import type { Answer } from './sweep-check.js';

/**
 * Malformed GraphQL requests: broken documents and transports from a fixed list, and for every
 * root field of schema/schema.graphql wrong variable types, unknown arguments and fields,
 * missing required arguments and hostile strings. Expected: never a 5xx, every error in
 * GraphQL's shape (`errors: [{message}]`) or, for a body refused before GraphQL sees it, the
 * `{message}` of every other route, and no stored data changed.
 */
export interface GraphQLCase {
  kind: 'graphql';
  label: string;
  endpoint: '/graphql' | '/graphql/stream';
  method: 'GET' | 'POST';
  /** GET: the raw query string. */
  search?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  contentType?: string | null;
  headers?: Record<string, string>;
}

const children = (levels: number): string => (levels === 0 ? 'id' : `children { ${children(levels - 1)} }`);
const ok = '{ whoami { account_id } }';
const post = (label: string, body: unknown): GraphQLCase => ({ kind: 'graphql', label, endpoint: '/graphql', method: 'POST', body });
const raw = (label: string, rawBody: string | Buffer, contentType: string | null = 'application/json'): GraphQLCase => ({
  kind: 'graphql',
  label,
  endpoint: '/graphql',
  method: 'POST',
  rawBody,
  contentType,
});
const get = (label: string, search: string): GraphQLCase => ({ kind: 'graphql', label, endpoint: '/graphql', method: 'GET', search });

function fixedCases(): GraphQLCase[] {
  const documents: [string, string][] = [
    ['lone brace', '{'],
    ['unclosed selection', '{ whoami { account_id }'],
    ['closing braces only', '}}}}'],
    ['empty document', ''],
    ['whitespace document', '   \n\t'],
    ['comment only', '# nothing'],
    ['unterminated string', '{ token(token_id: "abc) { id } }'],
    ['unterminated block string', '{ token(token_id: """abc) { id } }'],
    ['bad escape in a string', '{ token(token_id: "\\x41") { id } }'],
    ['NUL in the document', '{ who\u0000ami { account_id } }'],
    ['noncharacter in the document', '{ whoami { account_id } } \uFFFF'],
    ['trailing garbage', `${ok} garbage`],
    ['variable without a name', 'query($: Int) { whoami { account_id } }'],
    ['unknown field', '{ sweep_unknown }'],
    ['unknown sub-field', '{ whoami { sweep_unknown } }'],
    ['unknown argument', '{ whoami(sweep: 1) { account_id } }'],
    ['unknown variable type', 'query($a: SweepType) { whoami { account_id } }'],
    ['undeclared variable', '{ token(token_id: $id) { id } }'],
    ['unused variable', 'query($a: Int) { whoami { account_id } }'],
    ['fragment on an unknown type', '{ ...F } fragment F on SweepType { id }'],
    ['fragment cycle', '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'],
    ['self-referencing fragment', '{ ...A } fragment A on Query { whoami { account_id } ...A }'],
    ['unknown fragment', '{ ...Missing }'],
    ['unknown directive', '{ whoami @sweep { account_id } }'],
    ['skip without if', '{ whoami @skip { account_id } }'],
    ['include with a string', '{ whoami @include(if: "yes") { account_id } }'],
    ['scalar with a selection', '{ whoami { account_id { x } } }'],
    ['object without a selection', '{ whoami }'],
    ['mutation with no fields', 'mutation { }'],
    ['subscription over /graphql', 'subscription { token_events { action } }'],
    ['schema definition', 'type Sweep { a: Int } schema { query: Sweep }'],
    ['two anonymous operations', `${ok} ${ok}`],
    ['depth 30', `{ blocklist_monitors { ${children(28)} } }`],
    ['mutation depth 12', `mutation { create_blocklist_monitor(address: "192.0.2.9") { ${children(10)} } }`],
    ['200 aliases', `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: whoami { account_id }`).join(' ')} }`],
    ['2,000 tokens', `{ whoami { ${'account_id '.repeat(2000)}} }`],
    ['100,000 tokens', `{ whoami { ${'account_id '.repeat(100_000)}} }`],
    ['10,000 nested list values', `{ token(token_id: ${'['.repeat(10_000)}${']'.repeat(10_000)}) { id } }`],
    ['10,000 nested object values', `{ token(token_id: ${'{a:'.repeat(10_000)}1${'}'.repeat(10_000)}) { id } }`],
    ['10,000 nested selections', `{ whoami ${'{ account_id '.repeat(10_000)}${'}'.repeat(10_000)} }`],
    ['introspection __schema', '{ __schema { types { name } } }'],
    ['introspection __type', '{ __type(name: "Query") { fields { name } } }'],
    ['introspection behind a fragment', '{ ...I } fragment I on Query { __schema { queryType { name } } }'],
    ['huge int literal', '{ domains(limit: 99999999999999999999) { data { id } } }'],
    ['float for an Int', '{ domains(limit: 1.5) { data { id } } }'],
  ];
  const out = documents.map(([label, query]) => post(label, { query }));
  out.push(
    post('missing query', {}),
    post('query is a number', { query: 123 }),
    post('query is null', { query: null }),
    post('query is an array', { query: [ok] }),
    post('query is an object', { query: { kind: 'Document' } }),
    post('variables as a string', { query: ok, variables: '{}' }),
    post('variables as an array', { query: ok, variables: [1] }),
    post('variables as a number', { query: ok, variables: 5 }),
    post('operationName a number', { query: ok, operationName: 5 }),
    post('unknown operationName', { query: `query A ${ok}`, operationName: 'B' }),
    post('two operations without operationName', { query: `query A ${ok} query B ${ok}` }),
    post('extensions as a string', { query: ok, extensions: 'x' }),
    post('unknown persisted query', { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }),
    post('persisted query version 9', { extensions: { persistedQuery: { version: 9, sha256Hash: 'x' } } }),
    post('wrong variable type: string for Int', { query: 'query($n: Int!) { domains(limit: $n) { data { id } } }', variables: { n: 'abc' } }),
    post('wrong variable type: 2^31 for Int', { query: 'query($n: Int!) { domains(limit: $n) { data { id } } }', variables: { n: 2 ** 31 } }),
    post('wrong variable type: object for ID', { query: 'query($id: ID!) { token(token_id: $id) { id } }', variables: { id: { $ne: null } } }),
    post('missing required variable', { query: 'query($id: ID!) { token(token_id: $id) { id } }', variables: {} }),
    raw('10,000 nested variable', `{"query":"query($id: ID!) { token(token_id: $id) { id } }","variables":{"id":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`),
    post('lone surrogate variable', { query: 'query($id: ID!) { token(token_id: $id) { id } }', variables: { id: '\ud800' } }),
    post('batched array', [{ query: ok }, { query: ok }]),
    post('empty batch', []),
    post('bare string body', 'query'),
    raw('broken JSON', '{"query": "{ whoami { account_id } }"'),
    raw('invalid UTF-8', Buffer.concat([Buffer.from('{"query":"{ whoami { '), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from(' } }"}')])),
    raw('overlong UTF-8 in the document', Buffer.concat([Buffer.from('{"query":"{ whoami '), Buffer.from([0xc0, 0xbb]), Buffer.from(' }"}')])),
    raw('text/plain body', JSON.stringify({ query: ok }), 'text/plain'),
    raw('application/graphql body', ok, 'application/graphql'),
    raw('no content-type', JSON.stringify({ query: ok }), null),
    raw('form body', `query=${encodeURIComponent(ok)}`, 'application/x-www-form-urlencoded'),
    raw('empty JSON body', '', 'application/json'),
    raw('10,000 nested JSON', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    get('mutation over GET', `query=${encodeURIComponent('mutation { create_token(name: "get", scopes: ["email_full"]) { id } }')}`),
    // Past Apollo's CSRF check, so the refusal tested is the one of mutations over GET.
    { ...get('mutation over GET with a preflight header', `query=${encodeURIComponent('mutation { create_token(name: "get", scopes: ["email_full"]) { id } }')}`), headers: { 'apollo-require-preflight': 'true' } },
    { ...get('GET syntax error with a preflight header', 'query=%7B'), headers: { 'apollo-require-preflight': 'true' } },
    { ...get('GET variables not JSON with a preflight header', `query=${encodeURIComponent('query($n: Int!) { domains(limit: $n) { data { id } } }')}&variables=%7Bx`), headers: { 'apollo-require-preflight': 'true' } },
    get('GET without a query', ''),
    get('GET with variables not JSON', `query=${encodeURIComponent('query($n: Int!) { domains(limit: $n) { data { id } } }')}&variables=%7Bnot-json`),
    get('GET with a repeated query', `query=${encodeURIComponent(ok)}&query=${encodeURIComponent(ok)}`),
    get('GET with query[]', `query[]=${encodeURIComponent(ok)}`),
    get('GET with broken percent-encoding', 'query=%E0%A4%A'),
    get('GET with a syntax error', 'query=%7B'),
  );
  // The SSE endpoint is another server (yoga): the same documents must be refused the same way.
  for (const [label, query] of documents.slice(0, 12)) out.push({ ...post(`stream: ${label}`, { query }), endpoint: '/graphql/stream' });
  return out;
}

/** A wrong JSON value for an input type: anything its coercion must refuse. */
function wrongFor(type: GraphQLInputType): unknown[] {
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) return [{ a: 1 }, [[{ $gt: 1 }]]];
  if (isInputObjectType(named)) return ['x', [1], { sweep_unknown: 1 }];
  if (isEnumType(named)) return ['NOT_A_MEMBER', 1];
  if (isScalarType(named)) {
    if (named.name === 'Int' || named.name === 'Float') return ['1', 2 ** 31, true];
    if (named.name === 'Boolean') return ['true', 1];
    return [{ $ne: null }, ['x']];
  }
  return [null];
}

/** A value coercion accepts, so the one wrong variable of a case is what gets refused. */
function plausible(type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) return [];
  if (isEnumType(named)) return named.getValues()[0]?.value;
  if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, plausible(f.type)]));
  }
  if (named.name === 'Int' || named.name === 'Float') return 1;
  if (named.name === 'Boolean') return false;
  return named.name === 'ID' ? 'unknownid' : 'sweep';
}

/** Cases generated from the schema's root fields, at most `budget` of them (seeded sample). */
export function graphqlCases(sdl: string, budget: number, seed = 1): GraphQLCase[] {
  const schema: GraphQLSchema = buildSchema(sdl);
  const fixed = fixedCases();
  const generated: GraphQLCase[] = [];
  for (const [op, root] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.name.startsWith('operator_')) continue;
      const sel = isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type)) ? '' : '{ __typename }';
      const decl = (args: readonly GraphQLArgument[]) => (args.length ? `(${args.map((a) => `$${a.name}: ${a.type}`).join(', ')})` : '');
      const pass = (args: readonly GraphQLArgument[]) => (args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '');
      const doc = `${op}${decl(field.args)} { ${field.name}${pass(field.args)} ${sel} }`;
      const name = `${op} ${field.name}`;
      generated.push(post(`${name}: unknown argument`, { query: `${op} { ${field.name}(sweep_unknown: 1) ${sel} }` }));
      generated.push(post(`${name}: unknown sub-field`, { query: `${op}${decl(field.args)} { ${field.name}${pass(field.args)} { sweep_unknown } }` }));
      if (field.args.some((a) => isNonNullType(a.type))) generated.push(post(`${name}: no arguments`, { query: `${op} { ${field.name} ${sel} }` }));
      const base = Object.fromEntries(field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, plausible(a.type)]));
      for (const arg of field.args) {
        for (const v of wrongFor(arg.type)) {
          generated.push(post(`${name}: ${arg.name}=${JSON.stringify(v).slice(0, 30)}`, { query: doc, variables: { ...base, [arg.name]: v } }));
        }
        if (getNamedType(arg.type).name === 'String') {
          generated.push(post(`${name}: ${arg.name} with a lone surrogate`, { query: doc, variables: { ...base, [arg.name]: 'a\udc00' } }));
          generated.push(post(`${name}: ${arg.name} with a NUL`, { query: doc, variables: { ...base, [arg.name]: 'a\u0000' } }));
        }
      }
    }
  }
  const random = seeded(seed);
  for (let i = generated.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [generated[i], generated[j]] = [generated[j], generated[i]];
  }
  return [...fixed, ...generated.slice(0, Math.max(0, budget - fixed.length))];
}

export async function sendGraphQL(baseUrl: string, token: string, c: GraphQLCase): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', ...c.headers };
  const body: string | Buffer | undefined = c.rawBody ?? (c.body !== undefined ? JSON.stringify(c.body) : undefined);
  if (body !== undefined && c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${c.endpoint}${c.search !== undefined ? `?${c.search}` : ''}`, {
    method: c.method,
    headers,
    body: body === undefined ? undefined : new Uint8Array(Buffer.from(body)),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the shape check names it
  }
  return { status: res.status, text, body: parsed };
}

/** A GraphQL answer that carries an error must carry it as `errors: [{message}]` (or `{message}` for a refused body). */
export function graphqlViolation(_c: GraphQLCase, a: Answer): string | null {
  const body = a.body as { errors?: unknown; message?: unknown } | undefined;
  const errors = body?.errors;
  if (errors !== undefined) {
    if (!Array.isArray(errors) || errors.length === 0) return `${a.status} with errors not a non-empty array: ${a.text.slice(0, 200)}`;
    if (!errors.every((e) => e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string')) {
      return `${a.status} with an error without a string message: ${a.text.slice(0, 200)}`;
    }
    // A masked unexpected error is GraphQL's 500, whatever the HTTP status.
    if (errors.some((e) => (e as { message: string }).message === 'Internal server error')) return `internal error: ${a.text.slice(0, 200)}`;
    return null;
  }
  if (a.status < 400) return null;
  return typeof body?.message === 'string' ? null : `${a.status} without errors or message: ${a.text.slice(0, 200)}`;
}

/** Accepted: ran without an error, so it may have changed data. */
export const graphqlAccepted = (a: Answer) => a.status < 300 && !(a.body as { errors?: unknown } | undefined)?.errors;

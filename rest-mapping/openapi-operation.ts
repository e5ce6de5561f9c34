import { valueFromAST, type GraphQLField } from 'graphql';
import type { RestResource, RouteSpec } from './types.js';
import { rootFieldRoles } from '../src/graphql/auth.js';
import { argumentRules, type Keywords } from './rules.js';
import { tagOf } from './tags.js';
import { OPERATOR, WHOLE_ACCOUNT } from '../src/core/scopes.js';

/** One operation of the OpenAPI document, as openapi.ts builds it: what a generator reads of it. */
export type Schema = Record<string, unknown> & { type?: string; $ref?: string; items?: Schema; properties?: Record<string, Schema>; required?: string[] };
export type Operation = {
  operationId?: string;
  tags?: string[];
  description?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
  [k: string]: unknown;
};

const WHOLE_ACCOUNT_NOTE = 'Needs a token for the whole account: a token limited to a domain is refused (403).';
const OPERATOR_NOTE = 'Needs the operator token (OPERATOR_TOKEN), not an account token.';

/** Which keywords fit which JSON type: a rule is only written where the schema can carry it. */
const FITS: Record<string, (keyof Keywords)[]> = {
  string: ['maxLength', 'minLength', 'enum', 'format', 'pattern'],
  integer: ['minimum', 'maximum'],
  number: ['minimum', 'maximum'],
  array: ['maxItems', 'minItems', 'items'],
};

/**
 * `schema` with the validators' keywords added, as a new object (sofa may share schema objects
 * between operations). A `$ref` is left as it is: OpenAPI 3.0 ignores keywords beside one.
 */
function withKeywords(schema: Schema, kw: Keywords): Schema {
  if (schema.$ref || !schema.type) return schema;
  const out: Schema = { ...schema };
  for (const key of FITS[schema.type] ?? []) {
    const value = kw[key];
    if (value === undefined) continue;
    if (key === 'items') {
      if (out.items) out.items = withKeywords(out.items, value as Keywords);
    } else out[key] = value;
  }
  return out;
}

/** The JSON value of a GraphQL argument's default, when it has one. */
function defaultOf(arg: GraphQLField<unknown, unknown>['args'][number]): unknown {
  if (arg.defaultValue !== undefined) return arg.defaultValue;
  return arg.astNode?.defaultValue ? valueFromAST(arg.astNode.defaultValue, arg.type) : undefined;
}

/**
 * Per operation: the GraphQL root field's name as operationId (one vocabulary for both surfaces),
 * its resource as tag, the scope its resolver's `@Authorized` declares as security, and the
 * argument rules of its validators and defaults of its arguments on parameters and body fields.
 */
export function describeOperation(op: Operation, key: string, spec: RouteSpec, field: GraphQLField<unknown, unknown>, resources: readonly RestResource[]) {
  const name = key.split('.')[1];
  op.operationId = name;
  op.tags = [tagOf(key, spec, resources)];
  const roles = rootFieldRoles(name);
  const notes: string[] = [];
  if (roles === undefined) op.security = [];
  else {
    op.security = [{ bearer: roles.filter((r) => r !== WHOLE_ACCOUNT && r !== OPERATOR) }];
    if (roles.includes(WHOLE_ACCOUNT)) notes.push(WHOLE_ACCOUNT_NOTE);
    if (roles.includes(OPERATOR)) notes.push(OPERATOR_NOTE);
  }
  if (notes.length) op.description = [op.description, ...notes].filter(Boolean).join('\n\n');

  const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const rules = argumentRules(name);
  for (const arg of field.args) {
    const fallback = defaultOf(arg);
    const kw = rules[arg.name];
    if (fallback === undefined && !kw) continue;
    const patch = (schema: Schema) => {
      const out = kw ? withKeywords(schema, kw) : { ...schema };
      if (fallback !== undefined && fallback !== null && typeof fallback !== 'object' && !out.$ref) out.default = fallback;
      return out;
    };
    const param = op.parameters?.find((p) => p.name === arg.name && (p.in === 'query' || p.in === 'path'));
    if (param?.schema) {
      param.schema = patch(param.schema);
      // sofa marks a non-null argument required even when it has a default; the server fills it in.
      if (fallback !== undefined && param.in === 'query') param.required = false;
    } else if (body?.properties?.[arg.name]) {
      body.properties[arg.name] = patch(body.properties[arg.name]);
      if (fallback !== undefined && body.required) {
        body.required = body.required.filter((r) => r !== arg.name);
        if (!body.required.length) delete body.required;
      }
    }
  }
}

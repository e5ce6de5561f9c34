import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { msg, type FieldErrors } from '../src/core/errors.js';

/**
 * Turns path params, the query string and the JSON body into GraphQL variables, strictly.
 * sofa alone answers a missing argument or a bad Int with 400/500; here each becomes a 422 that
 * names the field by its dotted path, before anything runs.
 *
 * Values from the path and the query string are text and are converted by type; JSON body
 * values must already have the right JSON type.
 */
export type Source = 'text' | 'json';

const INT = /^-?\d+$/;
const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

function scalar(type: GraphQLInputType, value: unknown, source: Source, path: string, out: FieldErrors): unknown {
  const named = getNamedType(type);
  const fail = (text: string) => {
    (out[path] ??= []).push(text);
    return undefined;
  };
  if (isEnumType(named)) {
    if (typeof value !== 'string' || !named.getValue(value)) return fail(msg.in(path));
    return value;
  }
  if (!isScalarType(named)) return fail(msg.in(path));
  switch (named.name) {
    case 'String':
    case 'ID':
      if (typeof value === 'string') return value;
      if (named.name === 'ID' && typeof value === 'number' && Number.isInteger(value)) return String(value);
      return fail(msg.string(path));
    case 'Int': {
      const n = source === 'text' && typeof value === 'string' && INT.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > 2147483647) return fail(msg.integer(path));
      return n;
    }
    case 'Float': {
      const n = source === 'text' && typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return fail(`The ${path} must be a number.`);
      return n;
    }
    case 'Boolean':
      if (typeof value === 'boolean') return value;
      if (source === 'text' && typeof value === 'string') {
        if (TRUE.has(value)) return true;
        if (FALSE.has(value)) return false;
      }
      return fail(msg.boolean(path));
    default:
      try {
        return named.parseValue(value);
      } catch {
        return fail(msg.in(path));
      }
  }
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function coerce(type: GraphQLInputType, value: unknown, source: Source, path: string, out: FieldErrors): unknown {
  if (isNonNullType(type)) {
    if (isMissing(value) || (Array.isArray(value) && value.length === 0)) {
      (out[path] ??= []).push(msg.required(path));
      return undefined;
    }
    return coerce(type.ofType, value, source, path, out);
  }
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (isListType(type)) {
    // A single query-string value stands for a one-item list (`?event=sent`); a JSON body must send an array.
    const items = Array.isArray(value) ? value : source === 'text' ? [value] : null;
    if (!items) {
      (out[path] ??= []).push(msg.array(path));
      return undefined;
    }
    return coerceItems(type.ofType, items, source, path, out);
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      (out[path] ??= []).push(msg.object(path));
      return undefined;
    }
    const obj: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const v = (value as Record<string, unknown>)[field.name];
      if (v === undefined && field.defaultValue !== undefined) continue;
      const c = coerce(field.type, v, source, `${path}.${field.name}`, out);
      if (c !== undefined) obj[field.name] = c;
    }
    return obj;
  }
  return scalar(type, value, source, path, out);
}

/**
 * A list's items are checked until MAX_FAILING_ITEMS of them have failed: the caller learns what
 * is wrong without one error per item of a long list (a body of a million empty strings made a
 * million errors and an answer larger than the request; test/verification/upload-limits.test.ts).
 */
const MAX_FAILING_ITEMS = 10;

function coerceItems(type: GraphQLInputType, items: unknown[], source: Source, path: string, out: FieldErrors): unknown[] {
  const coerced: unknown[] = [];
  let failing = 0;
  for (let i = 0; i < items.length; i++) {
    const itemErrors: FieldErrors = {};
    coerced.push(coerce(type, items[i], source, `${path}.${i}`, itemErrors));
    if (Object.keys(itemErrors).length === 0) continue;
    Object.assign(out, itemErrors);
    if (++failing === MAX_FAILING_ITEMS) break;
  }
  return coerced;
}

/** Reads each argument from params, then query, then body, and coerces it. */
export function readArgs(
  args: readonly GraphQLArgument[],
  params: Record<string, string>,
  query: Record<string, unknown>,
  body: Record<string, unknown>,
): { variables: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const variables: Record<string, unknown> = {};
  for (const arg of args) {
    let value: unknown;
    let source: Source = 'text';
    if (arg.name in params) value = params[arg.name];
    else if (query[arg.name] !== undefined) {
      value = query[arg.name];
      // An empty value of an optional parameter is the parameter left out, as forms and clients
      // send unset filters (`?verified=&sort_by=`); `domain_id=` and `query=` already read so.
      // A required one stays a 422 (isMissing below).
      if (typeof value === 'string' && value.trim() === '' && (!isNonNullType(arg.type) || arg.defaultValue !== undefined)) value = undefined;
    } else {
      value = body[arg.name];
      source = 'json';
    }
    if (value === undefined && arg.defaultValue !== undefined) continue;
    const c = coerce(arg.type, value, source, arg.name, errors);
    if (c !== undefined) variables[arg.name] = c;
  }
  return { variables, errors };
}

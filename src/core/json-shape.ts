import { msg, type FieldErrors } from './errors.js';

/**
 * The JSON shape of a set of arguments, for a caller that receives them as JSON outside any
 * surface (a bulk send's items, read by a job). It makes the checks the /v1 pre-check makes of a
 * JSON body (rest-mapping/args.ts), with the same keys and words: a required field missing (null,
 * blank or an empty list), a value of the wrong JSON type. A test keeps each shape equal to the
 * GraphQL arguments it stands for.
 */
export type Shape = (
  | { kind: 'String' | 'Int' | 'Boolean' }
  | { kind: 'list'; of: Shape }
  | { kind: 'object'; fields: Fields }
  /** A custom scalar: `parse` throws on a value it refuses, and returns what to keep. */
  | { kind: 'scalar'; name: string; parse: (value: unknown) => unknown }
) & { required?: boolean };

export type Fields = Readonly<Record<string, Shape>>;

export const json = {
  string: { kind: 'String' } as Shape,
  int: { kind: 'Int' } as Shape,
  boolean: { kind: 'Boolean' } as Shape,
  list: (of: Shape): Shape => ({ kind: 'list', of }),
  object: (fields: Fields): Shape => ({ kind: 'object', fields }),
  scalar: (name: string, parse: (value: unknown) => unknown): Shape => ({ kind: 'scalar', name, parse }),
  required: (shape: Shape): Shape => ({ ...shape, required: true }),
};

/** The JSON object check of the JSONObject scalar: any object, not an array. */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('must be an object');
  return value as Record<string, unknown>;
}

const INT_MAX = 2147483647;

const isMissing = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function read(shape: Shape, value: unknown, path: string, out: FieldErrors): unknown {
  const fail = (text: string) => {
    (out[path] ??= []).push(text);
    return undefined;
  };
  if (shape.required && (isMissing(value) || (Array.isArray(value) && value.length === 0))) return fail(msg.required(path));
  if (value === undefined) return undefined;
  if (value === null) return null;
  switch (shape.kind) {
    case 'list':
      if (!Array.isArray(value)) return fail(msg.array(path));
      return value.map((item, i) => read(shape.of, item, `${path}.${i}`, out));
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) return fail(msg.object(path));
      return readFields(shape.fields, value as Record<string, unknown>, `${path}.`, out);
    case 'String':
      return typeof value === 'string' ? value : fail(msg.string(path));
    case 'Int':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= INT_MAX ? value : fail(msg.integer(path));
    case 'Boolean':
      return typeof value === 'boolean' ? value : fail(msg.boolean(path));
    case 'scalar':
      try {
        return shape.parse(value);
      } catch {
        return fail(msg.in(path));
      }
  }
}

function readFields(fields: Fields, body: Record<string, unknown>, prefix: string, out: FieldErrors): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, shape] of Object.entries(fields)) {
    const v = read(shape, body[name], `${prefix}${name}`, out);
    if (v !== undefined) value[name] = v;
  }
  return value;
}

/**
 * The fields of `body` that `fields` knows, checked; unknown keys are dropped. `errors` is empty
 * when the value can be used.
 */
export function readJson(fields: Fields, body: Record<string, unknown>): { value: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const value = readFields(fields, body, '', errors);
  return { value, errors };
}

import {
  getNamedType,
  isEnumType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLType,
} from 'graphql';

/** What the /v1 adapter reads from a route's types once, and how it trims an answer. */

/** Names of the object types a result of `type` can contain, at any depth. */
function reachableTypes(type: GraphQLOutputType, seen = new Set<string>()): Set<string> {
  const named = getNamedType(type);
  if (!isObjectType(named) || seen.has(named.name)) return seen;
  seen.add(named.name);
  for (const f of Object.values(named.getFields())) reachableTypes(f.type, seen);
  return seen;
}

/** Whether a result of `type` can hold a value of a custom scalar that serialises to an object. */
export function holdsObjectScalars(type: GraphQLOutputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (seen.has(named.name)) return false;
  seen.add(named.name);
  if (isScalarType(named)) return !isSpecifiedScalarType(named) && !TEXT_SCALARS.has(named.name);
  if (isObjectType(named) || isInterfaceType(named)) return Object.values(named.getFields()).some((f) => holdsObjectScalars(f.type, seen));
  if (isUnionType(named)) return named.getTypes().some((t) => holdsObjectScalars(t, seen));
  return false;
}

/**
 * Whether graphql-jit reads a variable of this type as graphql does: built-in scalars, lists of
 * them, and enums whose values are their names. jit applies no input object field defaults, so
 * such operations (mutations, mostly) run on graphql's `execute`.
 */
export function plainInput(type: GraphQLType | undefined): boolean {
  if (!type) return false;
  const named = getNamedType(type);
  if (isScalarType(named)) return isSpecifiedScalarType(named);
  if (isEnumType(named)) return named.getValues().every((v) => v.value === v.name);
  return false;
}

/** Custom scalars whose serialised value is a string (scalars.ts). */
const TEXT_SCALARS = new Set(['IsoTimestamp', 'PlainTimestamp', 'SendAt']);

/** Of the hidden fields (`Type.field`, RestContract), the keys a result of `field` can hold. */
export function hiddenKeys(field: GraphQLField<unknown, unknown>, hidden: readonly string[]): Set<string> {
  const types = reachableTypes(field.type);
  return new Set(hidden.map((h) => h.split('.')).filter(([t]) => types.has(t)).map(([, f]) => f));
}

/** Drops the named keys from every object of a /v1 answer. */
export function dropKeys(value: unknown, keys: ReadonlySet<string>): void {
  if (Array.isArray(value)) for (const item of value) dropKeys(item, keys);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (keys.has(k)) delete (value as Record<string, unknown>)[k];
      else dropKeys(v, keys);
    }
  }
}

/**
 * Removes the named keys whose value is null, at any depth. `parent.key` names a key only inside
 * what `parent` holds (an object or a list of them): `activity.suppression_reason`.
 */
export function dropNulls(value: unknown, keys: ReadonlySet<string>, parent = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) dropNulls(item, keys, parent);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (v === null && (keys.has(k) || keys.has(`${parent}.${k}`))) delete (value as Record<string, unknown>)[k];
      else dropNulls(v, keys, k);
    }
  }
}

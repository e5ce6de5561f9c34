import { GraphQLScalarType, Kind } from 'graphql';
import { isoTimestamp, plainTimestamp, toDate } from '../lib/timestamps.js';

export { isoTimestamp, plainTimestamp };

function timestampScalar(name: string, description: string, format: (v: Date) => string) {
  return new GraphQLScalarType<Date, string>({
    name,
    description,
    serialize: (v) => format(toDate(v)),
    parseValue: (v) => toDate(v),
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new TypeError(`${name} must be a string`);
      return toDate(ast.value);
    },
  });
}

export const IsoTimestamp = timestampScalar(
  'IsoTimestamp',
  'ISO 8601 UTC with six fractional digits, e.g. 2026-11-22T17:04:05.123000Z',
  (d) => isoTimestamp(d),
);

export const PlainTimestamp = timestampScalar('PlainTimestamp', 'UTC, YYYY-MM-DD HH:MM:SS', (d) => plainTimestamp(d));

/** Free-form JSON object (settings maps, variables). */
export const JSONObject = new GraphQLScalarType<Record<string, unknown>, Record<string, unknown>>({
  name: 'JSONObject',
  serialize: (v) => v as Record<string, unknown>,
  parseValue: (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError('must be an object');
    return v as Record<string, unknown>;
  },
});

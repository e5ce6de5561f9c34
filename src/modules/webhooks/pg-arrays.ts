/* Array parameters of the engine's statements (engine.repository.ts, lease.repository.ts). */

/** What JSON.stringify writes otherwise than as itself, `\"` or `\\`: control characters and surrogates. */
const NOT_LITERAL = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * A text[] parameter. JSON escapes a string's `"` and `\` as PostgreSQL's array literal does, so
 * without other escapes a JSON array of strings in braces is that literal, written by
 * JSON.stringify at native speed (pg's own array escaping, two regular expressions per element,
 * cost more than the rest of a round's record). A null is written `null`, which the literal reads
 * as NULL (a string "null" is quoted). Anything else goes to pg's escaping.
 */
export function textArray<T extends string | null>(values: T[]): string | T[] {
  for (const v of values) if (v !== null && NOT_LITERAL.test(v)) return values;
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}

/** One text[] parameter (textArray) per named string field of `rows`, in the order named. */
export function textColumns<T, K extends keyof T>(rows: readonly T[], keys: readonly K[]): Array<string | Array<T[K]>> {
  return keys.map((k) => textArray(rows.map((r) => r[k] as T[K] & (string | null))));
}

/** An int[] parameter of numbers (null for none), written the same way. */
export const intArray = (values: Array<number | null>): string => `{${JSON.stringify(values).slice(1, -1)}}`;

/**
 * Strings that hold no line feed (ids, types, times, and bodies: JSON.stringify writes none),
 * one text parameter that the statement splits: `string_to_array($n, chr(10))`. PostgreSQL splits
 * it on one byte, where an array literal is parsed character by character for quotes and
 * escapes, and a body needs no escaping either side (in an array literal each of its `"` is two bytes).
 */
export function lines(values: readonly string[]): string {
  const joined = values.join('\n');
  // Only ever true for a bug: a value split in two would shift every later row's columns. Counted
  // with indexOf, not match(/\n/g), which made a string per line feed.
  let feeds = 0;
  for (let at = joined.indexOf('\n'); at !== -1; at = joined.indexOf('\n', at + 1)) feeds++;
  if (joined.length && feeds !== values.length - 1) throw new Error('a line parameter holds a line feed');
  return joined;
}

/** The SQL of such a parameter, as a text[] (an empty list is an empty array). */
export const split = (param: string): string => `string_to_array(${param}, chr(10))`;

/* Array parameters of the engine's statements (engine.repository.ts, lease.repository.ts). */

/** What JSON.stringify writes otherwise than as itself, `\"` or `\\`: control characters and surrogates. */
const NOT_LITERAL = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * A text[] parameter. JSON escapes a string's `"` and `\` as PostgreSQL's array literal does, so
 * without other escapes a JSON array of strings in braces is that literal, written by
 * JSON.stringify at native speed (pg's own array escaping, two regular expressions per element,
 * cost more than the rest of a round's record). Anything else goes to pg's escaping.
 */
export function textArray(values: string[]): string | string[] {
  for (const v of values) if (NOT_LITERAL.test(v)) return values;
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}

/** An int[] parameter of numbers (null for none), written the same way. */
export const intArray = (values: Array<number | null>): string => `{${JSON.stringify(values).slice(1, -1)}}`;


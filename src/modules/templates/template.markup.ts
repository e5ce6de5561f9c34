/**
 * What a template source holds, read without parsing it: cheap scans that decide whether liquidjs
 * may parse it (template.engine.ts) and whether a render of it may stay on the event loop
 * (sending/render.ts).
 */

/**
 * Liquid tags (`{{`, `{%`, and each line of a `{% liquid %}` tag) one source may have. liquidjs
 * takes its tokens off the front of an array, which costs more per token as the array grows: a
 * few thousand parse in milliseconds, tens of thousands in seconds. A real email template has tens
 * to hundreds (test/templates/render-limits.test.ts).
 */
export const MAX_TAGS = 2000;

/** Characters of Liquid markup (inside `{{ }}` and `{% %}`) one source may have: parsing costs per character of markup. */
export const MAX_MARKUP_CHARS = 64 * 1024;

/** Whether the source has anything for the engine to do: without `{{` or `{%` it is its own output. */
export function isPlain(source: string): boolean {
  return !source.includes('{{') && !source.includes('{%');
}

/** An output of one variable, with no filter: `{{ name }}`, `{{ order.id }}`. */
const SIMPLE_OUTPUT = /\{\{-?\s*[A-Za-z_][\w-]*(?:\.[\w-]+)*\s*-?\}\}/g;

/**
 * How many outputs the source has when it is the `{{var}}` personalization SPEC.md names: no tag,
 * each output one variable with no filter; -1 when it is anything more. Such a render costs one
 * lookup and one write per output, and one cleaning per distinct value, so it can stay on the
 * event loop (sending/render.ts); anything more may loop, sort or amplify, and runs in the pool.
 */
export function simpleOutputs(source: string): number {
  if (source.includes('{%')) return -1;
  let opened = 0;
  for (let at = source.indexOf('{{'); at >= 0; at = source.indexOf('{{', at + 2)) opened++;
  const simple = source.match(SIMPLE_OUTPUT)?.length ?? 0;
  return simple === opened ? opened : -1;
}

/**
 * The Liquid tags and the characters of markup of a source, counted without parsing it: each
 * `{{`/`{%` opens a tag up to its closing `}}`/`%}` (or the end), each line inside one counts as
 * a tag too (a `{% liquid %}` tag holds one per line). It may count more than liquidjs would
 * (`{{` inside `{% raw %}`), never less.
 */
export function markupOf(source: string): { tags: number; chars: number } {
  let tags = 0;
  let chars = 0;
  // The next `{{` and `{%` at or after `at`, each searched again only once passed: one scan of the source.
  let output = source.indexOf('{{');
  let tag = source.indexOf('{%');
  let at = 0;
  while ((output >= 0 || tag >= 0) && tags <= MAX_TAGS && chars <= MAX_MARKUP_CHARS) {
    const start = output < 0 ? tag : tag < 0 ? output : Math.min(output, tag);
    const close = source.indexOf(start === output ? '}}' : '%}', start + 2);
    const end = close < 0 ? source.length : close + 2;
    tags++;
    // Stops counting at the cap: a tag that never closes may reach to the end of a large source.
    for (let i = start; i < end && chars <= MAX_MARKUP_CHARS; i++, chars++) if (source.charCodeAt(i) === 10) tags++;
    at = end;
    if (output >= 0 && output < at) output = source.indexOf('{{', at);
    if (tag >= 0 && tag < at) tag = source.indexOf('{%', at);
  }
  return { tags, chars };
}

/** Why a source is too large for liquidjs to parse (the end of a syntax error's message), or null. */
export function markupProblem(source: string): string | null {
  const { tags, chars } = markupOf(source);
  if (tags > MAX_TAGS) return `it has more than ${MAX_TAGS} Liquid tags`;
  if (chars > MAX_MARKUP_CHARS) return `it has more than ${MAX_MARKUP_CHARS} characters of Liquid markup`;
  return null;
}

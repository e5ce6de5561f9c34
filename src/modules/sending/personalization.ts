/**
 * The bounds of a send's personalization data (SPEC.md "Sending email": `personalization.*.data`,
 * key/value pairs). Templates run over this data, and a filter over a long list or string costs in
 * proportion to it (`sort_natural` over a long enough list holds the event loop for seconds),
 * so its size is bounded before anything renders: what a real transactional email
 * carries (a customer, an order of some hundred lines, a few links and blocks of text) fits far
 * within each bound. docs/security.md lists them; test/sending/personalization-limits.test.ts
 * guards them.
 */
export const PERSONALIZATION_LIMITS = {
  /** Entries of `personalization`: one per recipient a send may have (to, cc and bcc). */
  items: 70,
  /** One recipient's data as JSON, in UTF-8 bytes. */
  bytes: 64 * 1024,
  /** Objects and arrays nested in one another, the data object itself being the first. */
  depth: 8,
  /** Items of one array. */
  arrayItems: 1000,
  /** Characters of one string (a key or a value). */
  stringChars: 32 * 1024,
} as const;

export type PersonalizationLimits = Omit<typeof PERSONALIZATION_LIMITS, 'items'>;

/** A path for messages: dotted, each part cut, the whole bounded (keys may be long). */
function shown(path: (string | number)[]): string {
  const text = path.map((p) => (typeof p === 'string' && p.length > 40 ? `${p.slice(0, 40)}…` : String(p))).join('.');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** What a scalar adds to the JSON text of the data, in bytes (its key and separators included). */
function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value) + 2;
  if (typeof value === 'number') return String(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4;
}

/**
 * The first bound the data passes, as the end of a message (`may not be larger than 65536
 * bytes.`), or null with its size in bytes when it keeps them all. The walk stops at the first
 * bound passed, so it costs at most what the byte bound allows whatever the data's size.
 */
export function personalizationProblem(data: Record<string, unknown>, limits: PersonalizationLimits = PERSONALIZATION_LIMITS): { problem: string | null; bytes: number } {
  let bytes = 0;
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: data, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'string' && value.length > limits.stringChars) {
        return { problem: `may not have strings longer than ${limits.stringChars} characters (at ${shown(path)})`, bytes };
      }
      bytes += scalarBytes(value);
    } else {
      if (path.length + 1 > limits.depth) return { problem: `may not nest objects and lists deeper than ${limits.depth} levels (at ${shown(path)})`, bytes };
      if (Array.isArray(value)) {
        if (value.length > limits.arrayItems) return { problem: `may not have lists of more than ${limits.arrayItems} items (at ${shown(path)})`, bytes };
        bytes += 2 + value.length;
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      } else {
        const keys = Object.keys(value);
        bytes += 2;
        for (const key of keys) {
          if (key.length > limits.stringChars) return { problem: `may not have keys longer than ${limits.stringChars} characters (at ${shown([...path, key])})`, bytes };
          bytes += Buffer.byteLength(key) + 4;
          // Checked per key: an object of many keys is refused before all of them are walked.
          if (bytes > limits.bytes) break;
          stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
        }
      }
    }
    if (bytes > limits.bytes) return { problem: `may not be larger than ${limits.bytes} bytes`, bytes };
  }
  return { problem: null, bytes };
}

/**
 * The size in bytes of data already within the bounds (a message's, at delivery), or null once
 * past `cap` (the walk stops there): whether it is small enough to render on the event loop
 * (render.ts).
 */
export function dataBytesWithin(data: Record<string, unknown>, cap: number): number | null {
  const { problem, bytes } = personalizationProblem(data, { ...PERSONALIZATION_LIMITS, bytes: cap });
  return problem === null ? bytes : null;
}

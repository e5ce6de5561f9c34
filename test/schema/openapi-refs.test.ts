import { readFileSync } from 'node:fs';

/** A client generator stops at the first `$ref` that points nowhere; the sweep reads them too. */
it('every $ref of schema/openapi.json resolves', () => {
  const doc = JSON.parse(readFileSync('schema/openapi.json', 'utf8'));
  const refs = new Set<string>();
  (function walk(node: unknown) {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      else walk(value);
    }
  })(doc);
  const missing = [...refs].filter((ref) => ref.slice(2).split('/').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc) === undefined);
  expect(refs.size).toBeGreaterThan(50);
  expect(missing).toEqual([]);
});

import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A package loaded on first use instead of at start. Every role imports every module's code (the
 * manifests are one static graph), so the api role would otherwise hold the SMTP server, the MIME
 * parser and the DMARC report readers it never runs, resident for nothing (bench:memory;
 * test/platform/role-modules.test.ts checks what a serving api holds). `require` (of CommonJS,
 * or of ESM without top-level await, which Node 24 loads synchronously) keeps the call sites
 * synchronous and typed; the type comes from a type-only import at the call site.
 */
export function lazy<T>(specifier: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(specifier) as T);
}

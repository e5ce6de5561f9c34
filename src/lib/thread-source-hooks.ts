import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';

/**
 * Loaded (`--import`) into worker threads that run the TypeScript sources rather than the built
 * service, as the tests do: Node strips the types, but the sources' relative imports name the
 * `.js` files tsc emits. A `.js` that does not exist beside a `.ts` importer is read as its
 * `.ts`. The built service never loads this file (untrusted-pool.ts adds it only for `.ts`).
 */
registerHooks({
  resolve(specifier, context, next) {
    const parent = context.parentURL;
    if (parent?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js') && !existsSync(new URL(specifier, parent))) {
      return next(`${specifier.slice(0, -3)}.ts`, context);
    }
    return next(specifier, context);
  },
});

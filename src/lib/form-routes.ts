import type { FastifyInstance } from 'fastify';

/**
 * Registers routes that take HTML-form posts (`application/x-www-form-urlencoded`, read into a
 * plain object of strings) in a scope of their own, so the form parser applies to them only and
 * not to /v1. Bodies larger than `bodyLimit` bytes are refused (413).
 */
export function registerFormRoutes(app: FastifyInstance, bodyLimit: number, routes: (scope: FastifyInstance) => void): void {
  app.register(named('form routes', async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    routes(scope);
  }));
}

/**
 * A plugin with its name: fastify otherwise looks for an unnamed plugin among every loaded
 * module (`require.cache`), which under the test runner holds thousands and costs every test server's start.
 */
export function named<T extends (scope: FastifyInstance) => Promise<void>>(name: string, plugin: T): T {
  return Object.assign(plugin, { [Symbol.for('fastify.display-name')]: name });
}

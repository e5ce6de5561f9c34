import type { FastifyInstance } from 'fastify';

/**
 * Registers routes that take HTML-form posts (`application/x-www-form-urlencoded`, read into a
 * plain object of strings) in a scope of their own, so the form parser applies to them only and
 * not to /v1. Bodies larger than `bodyLimit` bytes are refused (413).
 */
export function registerFormRoutes(app: FastifyInstance, bodyLimit: number, routes: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    routes(scope);
  });
}

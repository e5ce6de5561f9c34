import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.js';
import { modules } from '../modules/index.js';

/**
 * Routes outside GraphQL and /v1, from the modules' manifests: pages a person opens from an email
 * (confirmation links, tracking, the owner link), and the SMS provider's callbacks.
 */
export function registerPlainRoutes(app: FastifyInstance, services: AppServices): void {
  for (const m of modules) m.routes?.(app, services);
}

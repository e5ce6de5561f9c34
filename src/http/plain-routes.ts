import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.js';

/** Routes outside GraphQL and /v1 that a person opens from an email (confirmation links). */
export function registerPlainRoutes(_app: FastifyInstance, _services: AppServices): void {}

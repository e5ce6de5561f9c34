import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.js';

/** The confirmation link a sender identity's owner opens. */
export function registerIdentityRoutes(_app: FastifyInstance, _services: AppServices): void {}

import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.js';

/** The invitation link an invited person opens to join the account. */
export function registerInviteRoutes(_app: FastifyInstance, _services: AppServices): void {}

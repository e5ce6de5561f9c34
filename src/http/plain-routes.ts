import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.js';
import { registerIdentityRoutes } from '../modules/identities/identity.routes.js';
import { registerInviteRoutes } from '../modules/users/invite.routes.js';
import { registerTrackingRoutes } from '../modules/tracking/tracking.routes.js';

/** Routes outside GraphQL and /v1 that a person opens from an email (confirmation links). */
export function registerPlainRoutes(app: FastifyInstance, services: AppServices): void {
  registerIdentityRoutes(app, services);
  registerInviteRoutes(app, services);
  registerTrackingRoutes(app, services);
}

import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.js';
import { registerIdentityRoutes } from '../modules/identities/identity.routes.js';
import { registerInviteRoutes } from '../modules/users/invite.routes.js';
import { registerOwnerRoutes } from '../modules/users/owner.routes.js';
import { registerTrackingRoutes } from '../modules/tracking/tracking.routes.js';
import { registerSmsProviderRoutes } from '../modules/sms/provider.routes.js';
import { registerSmsInboundRoutes } from '../modules/sms-inbound/sms-inbound.routes.js';
import { registerInboundForwardRoutes } from '../modules/inbound/inbound.routes.js';

/**
 * Routes outside GraphQL and /v1: pages a person opens from an email (confirmation links,
 * tracking), and the SMS provider's callbacks (status reports, inbound texts).
 */
export function registerPlainRoutes(app: FastifyInstance, services: AppServices): void {
  registerIdentityRoutes(app, services);
  registerInviteRoutes(app, services);
  registerOwnerRoutes(app, services);
  registerTrackingRoutes(app, services);
  registerSmsProviderRoutes(app, services);
  registerSmsInboundRoutes(app, services);
  registerInboundForwardRoutes(app, services);
}

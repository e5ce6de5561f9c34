import type { ModuleManifest } from '../module.js';
import { registerAuthRoutes } from './auth.routes.js';
import { registerResetRoutes } from './reset.routes.js';
import { UserResolver } from './user.resolver.js';
import { registerInviteRoutes } from './invite.routes.js';
import { registerOwnerRoutes } from './owner.routes.js';
import { userRoutes } from './user.rest.js';
import { userGuardsOf } from './guards.js';

export const usersModule: ModuleManifest = {
  name: 'users',
  resolvers: [UserResolver],
  routes: (app, services) => {
    // One set of limits for every route of this process that checks a password, a code or a link.
    const guards = userGuardsOf(services.config);
    registerInviteRoutes(app, services, guards);
    registerOwnerRoutes(app, services, guards);
    registerAuthRoutes(app, services, guards);
    registerResetRoutes(app, services, guards);
  },
  rest: [
    { name: 'Users', description: 'Account users and their invitations.', routes: userRoutes },
  ],
};

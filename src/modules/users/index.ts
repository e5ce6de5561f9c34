import type { ModuleManifest } from '../module.js';
import { AccountUser, Invite } from './user.entity.js';
import { UserSession } from './session.entity.js';
import { registerAuthRoutes } from './auth.routes.js';
import { registerResetRoutes } from './reset.routes.js';
import { UserResolver } from './user.resolver.js';
import { registerInviteRoutes } from './invite.routes.js';
import { registerOwnerRoutes } from './owner.routes.js';
import { userRoutes } from './user.rest.js';

export const usersModule: ModuleManifest = {
  name: 'users',
  entities: [AccountUser, Invite, UserSession],
  resolvers: [UserResolver],
  routes: (app, services) => {
    registerInviteRoutes(app, services);
    registerOwnerRoutes(app, services);
    registerAuthRoutes(app, services);
    registerResetRoutes(app, services);
  },
  rest: [
    { name: 'Users', description: 'Account users and their invitations.', routes: userRoutes },
  ],
};

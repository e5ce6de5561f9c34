import type { ModuleManifest } from '../module.js';
import { IdentityResolver } from './identity.resolver.js';
import { registerIdentityRoutes } from './identity.routes.js';
import { identityRoutes } from './identity.rest.js';

export const identitiesModule: ModuleManifest = {
  name: 'identities',
  resolvers: [IdentityResolver],
  routes: registerIdentityRoutes,
  rest: [
    { name: 'Sender identities', description: 'Single sender addresses, verified by a confirmation email.', routes: identityRoutes },
  ],
};

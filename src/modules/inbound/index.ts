import type { ModuleManifest } from '../module.js';
import { Inbound } from './inbound.entity.js';
import { InboundResolver } from './inbound.resolver.js';
import { registerInboundForwardRoutes } from './inbound.routes.js';
import { inboundRoutes } from './inbound.rest.js';

export const inboundModule: ModuleManifest = {
  name: 'inbound',
  resolvers: [InboundResolver],
  routes: registerInboundForwardRoutes,
  rest: [
    { name: 'Inbound routes', description: 'Routes that receive mail and forward it to addresses or URLs.', routes: inboundRoutes },
  ],
  hiddenOnRest: [
    // No inbound object in SPEC.md; COMPAT.md's forwards are `{type, value}`: the confirmation state is for GraphQL.
    'InboundForward.confirmation',
  ],
};

import type { ModuleManifest } from '../module.js';
import { SuppressionResolver } from './suppression.resolver.js';
import { suppressionRoutes } from './suppression.rest.js';

export const suppressionsModule: ModuleManifest = {
  name: 'suppressions',
  resolvers: [SuppressionResolver],
  rest: [
    { name: 'Suppressions', description: 'Blocklist, hard bounces, spam complaints, unsubscribes and the on-hold list.', routes: suppressionRoutes },
  ],
};

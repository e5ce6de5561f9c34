import type { ModuleManifest } from '../module.js';
import { AnalyticsResolver } from './analytics.resolver.js';
import { analyticsRoutes } from './analytics.rest.js';

export const analyticsModule: ModuleManifest = {
  name: 'analytics',
  resolvers: [AnalyticsResolver],
  rest: [
    { name: 'Analytics', description: 'Counts of email events by date, country and user agent.', routes: analyticsRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { QuotaResolver } from './quota.resolver.js';
import { quotaRoutes } from './quota.rest.js';

export const quotaModule: ModuleManifest = {
  name: 'quota',
  resolvers: [QuotaResolver],
  rest: [
    { name: 'API quota', description: "The account's daily API quota.", routes: quotaRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { BulkResolver } from './bulk.resolver.js';
import { bulkEmailRoutes } from './bulk.rest.js';

export const bulkModule: ModuleManifest = {
  name: 'bulk',
  resolvers: [BulkResolver],
  rest: [
    { name: 'Bulk email', description: 'Sending many emails in one request, and reading how that went.', routes: bulkEmailRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { BulkEmail } from './bulk-email.entity.js';
import { BulkResolver } from './bulk.resolver.js';
import { bulkJob } from './bulk.job.js';
import { bulkWorker } from './bulk.worker.js';
import { bulkEmailRoutes } from './bulk.rest.js';

export const bulkModule: ModuleManifest = {
  name: 'bulk',
  entities: [BulkEmail],
  resolvers: [BulkResolver],
  jobs: [bulkJob],
  workers: [bulkWorker],
  rest: [
    { name: 'Bulk email', description: 'Sending many emails in one request, and reading how that went.', routes: bulkEmailRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { BlocklistMonitor, BlocklistHit } from './blocklist.entity.js';
import { BlocklistResolver } from './blocklist.resolver.js';
import { blocklistInitialCheckJob, blocklistRecheckJob, blocklistWebhookJob } from './blocklist.job.js';
import { blocklistInitialCheckWorker, blocklistRecheckWorker, blocklistWebhookWorker } from './blocklist.worker.js';
import { blocklistRoutes } from './blocklist.rest.js';

export const blocklistModule: ModuleManifest = {
  name: 'blocklist',
  entities: [BlocklistMonitor, BlocklistHit],
  resolvers: [BlocklistResolver],
  jobs: [blocklistInitialCheckJob, blocklistRecheckJob, blocklistWebhookJob],
  workers: [blocklistInitialCheckWorker, blocklistRecheckWorker, blocklistWebhookWorker],
  rest: [
    { name: 'Blocklist monitoring', description: 'Watching IPs and domains on public blocklists.', routes: blocklistRoutes },
  ],
};

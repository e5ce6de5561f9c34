import type { ModuleManifest } from '../module.js';
import { BlocklistResolver } from './blocklist.resolver.js';
import { blocklistRoutes } from './blocklist.rest.js';

export const blocklistModule: ModuleManifest = {
  name: 'blocklist',
  resolvers: [BlocklistResolver],
  rest: [
    { name: 'Blocklist monitoring', description: 'Watching IPs and domains on public blocklists.', routes: blocklistRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { IpPoolResolver } from './ip-pool.resolver.js';

export const ipPoolsModule: ModuleManifest = {
  name: 'ip-pools',
  resolvers: [IpPoolResolver],
};

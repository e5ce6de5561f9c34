import type { ModuleManifest } from '../module.js';
import { RetentionResolver } from './retention.resolver.js';

export const retentionModule: ModuleManifest = {
  name: 'retention',
  resolvers: [RetentionResolver],
};

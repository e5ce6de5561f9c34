import type { ModuleManifest } from '../module.js';
import { OperatorResolver } from './operator.resolver.js';

export const operatorModule: ModuleManifest = {
  name: 'operator',
  resolvers: [OperatorResolver],
};

import type { ModuleManifest } from '../module.js';
import { Account } from './account.entity.js';

export const accountsModule: ModuleManifest = {
  name: 'accounts',
  entities: [Account],
};

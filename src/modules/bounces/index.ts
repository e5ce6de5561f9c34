import type { ModuleManifest } from '../module.js';

export const bouncesModule: ModuleManifest = {
  name: 'bounces',
};

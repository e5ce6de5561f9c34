import type { ModuleManifest } from '../module.js';

export const smtpModule: ModuleManifest = {
  name: 'smtp',
};

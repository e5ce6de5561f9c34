import type { ModuleManifest } from '../module.js';
import { CapturedMail } from './captured-mail.entity.js';
import { systemMailJob } from './system-mail.job.js';
import { systemMailWorker } from './system-mail.worker.js';

export const mailModule: ModuleManifest = {
  name: 'mail',
  entities: [CapturedMail],
  jobs: [systemMailJob],
  workers: [systemMailWorker],
};

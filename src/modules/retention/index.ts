import type { ModuleManifest } from '../module.js';
import { retentionPurgeJob } from './retention.job.js';
import { retentionPurgeWorker } from './retention.worker.js';

/** Per-plan data retention: the scheduled purge of mail and logs past their time (accounts/plans.ts). */
export const retentionModule: ModuleManifest = {
  name: 'retention',
  jobs: [retentionPurgeJob],
  workers: [retentionPurgeWorker],
};

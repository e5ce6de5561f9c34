import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { verificationListJob } from '../../modules/verification/list.job.js';
import { runListChunk } from './list.run.js';

export const verificationListWorker = defineWorker(verificationListJob, async (data, services: AppServices) => {
  await runListChunk(services, data.list_id, data.run_id ?? null);
});

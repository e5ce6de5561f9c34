import { defineWorker } from '../../jobs/job.js';
import { verificationListJob } from './list.job.js';
import { runListChunk } from './list.run.js';

export const verificationListWorker = defineWorker(verificationListJob, async (data, services) => {
  await runListChunk(services, data.list_id, data.run_id ?? null);
});

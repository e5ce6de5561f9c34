import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { bulkJob } from './bulk.job.js';
import { processBulk } from './bulk.service.js';

export const bulkWorker = defineWorker(bulkJob, async (data, services: AppServices) => {
  await processBulk(services, data.bulk_email_id);
});

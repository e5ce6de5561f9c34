import { defineWorker } from '../../jobs/job.js';
import { bulkJob } from './bulk.job.js';
import { processBulk } from './bulk.service.js';

export const bulkWorker = defineWorker(bulkJob, async (data, services) => {
  await processBulk(services, data.bulk_email_id);
});

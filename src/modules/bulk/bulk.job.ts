import { defineJob } from '../../jobs/job.js';

/** Sends the messages of one bulk request; a retry resumes after the last one done. */
export const bulkJob = defineJob<{ bulk_email_id: string }>({
  name: 'bulk-email.process',
  retryLimit: 10,
  retryDelay: 5,
  batchSize: 1,
  async perform(data, services) {
    const { processBulk } = await import('./bulk.service.js');
    await processBulk(services, data.bulk_email_id);
  },
});

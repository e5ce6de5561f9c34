import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** Sends the messages of one bulk request; a retry resumes after the last one done. */
export const bulkJob = defineJob({
  name: 'bulk-email.process',
  schema: z.object({ bulk_email_id: z.string() }),
  retryLimit: 10,
  retryDelay: 5,
  batchSize: 1,
});

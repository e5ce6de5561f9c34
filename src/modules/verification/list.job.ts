import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Verifies the next chunk of a list's addresses, then enqueues itself again until none is left.
 * Short runs keep a worker from being held by one big list and let pause/cancel take effect
 * between chunks; a retried run picks up exactly the addresses still queued.
 */
export const verificationListJob = defineJob({
  name: 'email-verification.list',
  schema: z.object({ list_id: z.string(), run_id: z.string().optional() }),
  retryLimit: 5,
  retryDelay: 30,
  batchSize: 1,
  concurrency: (config) => config.VERIFY_LIST_JOBS,
});

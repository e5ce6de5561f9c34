import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Delivers one accepted message: each of its emails in turn. A message whose emails were deferred
 * fails the job on purpose, so pg-boss retries it with backoff; the last attempt turns what is
 * still deferred into soft bounces. The heartbeat lets a killed worker's message be taken up again.
 */
export const deliverJob = defineJob({
  name: 'email.deliver',
  schema: z.object({ message_id: z.string() }),
  batchSize: 10,
  // Each worker holds a database connection while it talks SMTP: keep this under the pool size.
  concurrency: (config) => config.DELIVERY_CONCURRENCY,
  retryBackoff: true,
  queue: (config) => ({
    retryLimit: config.DELIVERY_RETRY_LIMIT,
    retryDelay: config.DELIVERY_RETRY_DELAY_SECONDS,
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
    expireInSeconds: 3600,
  }),
});

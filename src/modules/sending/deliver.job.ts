import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Delivers one accepted message: each of its emails. Workers fetch these jobs in batches
 * (DELIVERY_BATCH_SIZE) and deliver a batch's messages together (engines/delivery/delivery.batch.ts). A message whose
 * emails were deferred fails its job on purpose, so pg-boss retries it with backoff; the last
 * attempt turns what is still deferred into soft bounces. The delivery engine fetches these jobs
 * itself, claiming a batch's messages in the fetch's transaction, and settles them.
 */
export const deliverJob = defineJob({
  name: 'email.deliver',
  schema: z.object({ message_id: z.string() }),
  batchSize: (config) => config.DELIVERY_BATCH_SIZE,
  // Batches fetched side by side: while one waits on a slow receiver, the next one is already
  // taken. The emails in flight are bounded by DELIVERY_CONCURRENCY across all of them.
  concurrency: (config) => Math.min(4, config.DELIVERY_CONCURRENCY),
  retryBackoff: true,
  queue: (config) => ({
    retryLimit: config.DELIVERY_RETRY_LIMIT,
    retryDelay: config.DELIVERY_RETRY_DELAY_SECONDS,
    // No heartbeat: a batch's lease row says whether its worker lives (engines/delivery/delivery.loop.ts).
    heartbeatSeconds: null,
    expireInSeconds: 3600,
  }),
});

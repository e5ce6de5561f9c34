import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Deletes what is past its retention (each plan's days: retention.service.ts), in batches of
 * RETENTION_PURGE_BATCH rows, for up to RETENTION_PURGE_SECONDS per run; what is left waits for the
 * next run. `now` purges as of another instant: the tests fast-forward the clock with it; the cron
 * queues `{}` (the database's clock).
 */
export const retentionPurgeJob = defineJob({
  name: 'retention.purge',
  schema: z.object({ now: z.iso.datetime().optional() }),
  retryLimit: 1,
  // Past its budget a run stops by itself; the expiry is only a backstop for a statement that hangs.
  queue: (config) => ({ expireInSeconds: config.RETENTION_PURGE_SECONDS + 600 }),
  cron: (config) => config.RETENTION_PURGE_CRON,
});

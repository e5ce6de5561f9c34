import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** The first check of a new monitor, queued with its creation. */
export const blocklistInitialCheckJob = defineJob({
  name: 'blocklist.initial-check',
  schema: z.object({ monitor_id: z.string() }),
  retryLimit: 3,
  retryDelay: 30,
});

/** Re-checks the monitors whose next_check has come. */
export const blocklistRecheckJob = defineJob({
  name: 'blocklist.recheck',
  schema: z.object({ limit: z.number().int().positive().optional() }),
  retryLimit: 1,
  expireInSeconds: 3600,
  cron: (config) => config.BLOCKLIST_CHECK_CRON,
});

/**
 * One signed POST of a new-listing alert. The body, id and timestamp are fixed when queued, so
 * a retry carries the same signature input.
 */
export const blocklistWebhookJob = defineJob({
  name: 'blocklist.webhook',
  schema: z.object({ monitor_id: z.string(), forward_id: z.string(), delivery_id: z.string(), at: z.string(), body: z.string() }),
  retryLimit: 8,
  retryDelay: 30,
});

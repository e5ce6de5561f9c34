import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** Re-checks the DNS of unverified domains, least recently checked first. */
export const domainRecheckJob = defineJob({
  name: 'domains.recheck',
  schema: z.object({ limit: z.number().int().positive().optional() }),
  retryLimit: 1,
  cron: (config) => config.DOMAIN_CHECK_CRON,
});

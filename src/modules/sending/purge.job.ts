import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Hourly housekeeping of sending: Idempotency-Key answers are kept 24 h (a retry after that is a
 * new request), and analytics' daily counts 6 months (SPEC.md "Analytics": data is kept up to
 * 6 months; the request rules refuse older ranges anyway).
 */
export const sendingPurgeJob = defineJob({
  name: 'sending.purge',
  schema: z.object({}),
  retryLimit: 1,
  cron: () => '17 * * * *',
});

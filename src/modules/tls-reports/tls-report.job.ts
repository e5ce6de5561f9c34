import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** Sends the TLS reports of one UTC day (the previous one when the cron queues it). */
export const tlsReportJob = defineJob({
  name: 'tls-report.send',
  schema: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() }),
  retryLimit: 2,
  retryDelay: 600,
  expireInSeconds: 3600,
  cron: (config) => config.TLS_REPORT_CRON,
});

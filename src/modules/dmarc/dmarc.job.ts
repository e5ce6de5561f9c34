import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** Looks up every monitored domain's DMARC and SPF records again (DMARC_CHECK_CRON). */
export const dmarcRecheckJob = defineJob({
  name: 'dmarc.recheck',
  schema: z.object({}),
  retryLimit: 1,
  expireInSeconds: 3600,
  cron: (config) => config.DMARC_CHECK_CRON,
});

/**
 * Reverse DNS of the source IPs of one stored report (the reads show it as `ip_domain`). A name
 * with no PTR record is stored as ''; a lookup that fails leaves null and the job is retried.
 */
export const dmarcResolveIpsJob = defineJob({
  name: 'dmarc.resolve-ips',
  schema: z.object({ report_id: z.string() }),
  retryLimit: 3,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 900,
});

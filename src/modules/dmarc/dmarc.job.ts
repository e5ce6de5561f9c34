import { defineJob } from '../../jobs/job.js';
import { recheckAll } from './check.js';

/** Looks up every monitored domain's DMARC and SPF records again (DMARC_CHECK_CRON). */
export const dmarcRecheckJob = defineJob<Record<string, never>>({
  name: 'dmarc.recheck',
  retryLimit: 1,
  expireInSeconds: 3600,
  cron: (services) => services.config.DMARC_CHECK_CRON,
  async perform(_data, services) {
    await recheckAll(services);
  },
});

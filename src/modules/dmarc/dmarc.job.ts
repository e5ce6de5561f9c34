import { defineJob } from '../../jobs/job.js';
import { recheckAll } from './check.js';
import { resolveReportIps } from './resolve-ips.js';

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

/**
 * Reverse DNS of the source IPs of one stored report (the reads show it as `ip_domain`). A name
 * with no PTR record is stored as ''; a lookup that fails leaves null and the job is retried.
 */
export const dmarcResolveIpsJob = defineJob<{ report_id: string }>({
  name: 'dmarc.resolve-ips',
  retryLimit: 3,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 900,
  async perform({ report_id }, services) {
    await resolveReportIps(services, report_id);
  },
});

import { defineWorker } from '../../jobs/job.js';
import { recheckAll } from './check.js';
import { dmarcRecheckJob, dmarcResolveIpsJob } from './dmarc.job.js';
import { resolveReportIps } from './resolve-ips.js';

export const dmarcRecheckWorker = defineWorker(dmarcRecheckJob, async (_data, services) => {
  await recheckAll(services);
});

export const dmarcResolveIpsWorker = defineWorker(dmarcResolveIpsJob, async ({ report_id }, services) => {
  await resolveReportIps(services, report_id);
});

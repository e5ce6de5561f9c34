import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { recheckAll } from './monitor.recheck.js';
import { dmarcRecheckJob, dmarcResolveIpsJob } from '../../modules/dmarc/dmarc.job.js';
import { resolveReportIps } from './resolve-ips.js';

export const dmarcRecheckWorker = defineWorker(dmarcRecheckJob, async (_data, services: AppServices) => {
  await recheckAll(services);
});

export const dmarcResolveIpsWorker = defineWorker(dmarcResolveIpsJob, async ({ report_id }, services: AppServices) => {
  await resolveReportIps(services, report_id);
});

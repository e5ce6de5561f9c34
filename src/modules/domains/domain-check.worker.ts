import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { Domain } from './domain.entity.js';
import { domainRecheckJob } from './domain-check.job.js';
import { recheck } from './domain.service.js';

export const domainRecheckWorker = defineWorker(domainRecheckJob, async (data, services: AppServices) => {
  const em = services.orm.em.fork();
  const domains = await em.find(
    Domain,
    { is_verified: false },
    { orderBy: { last_checked_at: 'asc nulls first' }, limit: data.limit ?? 200 },
  );
  for (const domain of domains) await recheck(em, services, domain);
});

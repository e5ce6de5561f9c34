import { defineJob } from '../../jobs/job.js';
import { Domain } from './domain.entity.js';
import { recheck } from './domain.service.js';

/** Re-checks the DNS of unverified domains, least recently checked first. */
export const domainRecheckJob = defineJob<{ limit?: number }>({
  name: 'domains.recheck',
  retryLimit: 1,
  cron: (services) => services.config.DOMAIN_CHECK_CRON,
  async perform(data, services) {
    const em = services.orm.em.fork();
    const domains = await em.find(
      Domain,
      { is_verified: false },
      { orderBy: { last_checked_at: 'asc nulls first' }, limit: data.limit ?? 200 },
    );
    for (const domain of domains) await recheck(em as never, services, domain);
  },
});

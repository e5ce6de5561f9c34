import { defineJob } from '../../jobs/job.js';

/**
 * Hourly housekeeping of sending: Idempotency-Key answers are kept 24 h (a retry after that is a
 * new request), and analytics' daily counts 6 months (SPEC.md "Analytics": data is kept up to
 * 6 months; the request rules refuse older ranges anyway).
 */
export const sendingPurgeJob = defineJob<object>({
  name: 'sending.purge',
  retryLimit: 1,
  cron: () => '17 * * * *',
  async perform(_data, services) {
    const em = services.orm.em.fork();
    await em.execute(`delete from idempotency_keys where created_at < now() - interval '24 hours'`);
    await em.execute(`delete from activity_stats where day < (now() - interval '7 months')::date`);
  },
});

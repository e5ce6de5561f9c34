import { defineWorker } from '../../jobs/job.js';
import { sendingPurgeJob } from './purge.job.js';

export const sendingPurgeWorker = defineWorker(sendingPurgeJob, async (_data, services) => {
  const em = services.orm.em.fork();
  await em.execute(`delete from idempotency_keys where created_at < now() - interval '24 hours'`);
  await em.execute(`delete from activity_stats where day < (now() - interval '7 months')::date`);
});

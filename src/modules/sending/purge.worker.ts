import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { ActivityRepository } from '../activity/activity.repository.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { sendingPurgeJob } from './purge.job.js';

export const sendingPurgeWorker = defineWorker(sendingPurgeJob, async (_data, services: AppServices) => {
  const em = services.orm.em.fork();
  await new IdempotencyRepository(em).purgeExpired();
  await new ActivityRepository(em).purgeStats();
});

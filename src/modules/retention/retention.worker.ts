import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { retentionPurgeJob } from './retention.job.js';
import { purgeExpired } from './retention.purge.js';

export const retentionPurgeWorker = defineWorker(retentionPurgeJob, async (data, services: AppServices) => {
  const purged = await purgeExpired(services, { now: data.now ? new Date(data.now) : undefined });
  const total = Object.values(purged.deleted).reduce((a, b) => a + b, 0);
  if (total || purged.partitions.made.length || purged.partitions.dropped.length) services.log.info({ ...purged }, 'retention purge');
});

import type { AppServices } from '../../core/services.js';
import { defineBatchWorker, type RegisteredWorker } from '../../jobs/job.js';
import { deliverBatch, engineOf } from './delivery.batch.js';
import { deliverJob } from '../../modules/sending/deliver.job.js';

export const deliverWorker: RegisteredWorker<AppServices> = {
  ...defineBatchWorker(deliverJob, (items, services: AppServices) =>
    deliverBatch(
      services,
      items.map((i) => ({ messageId: i.data.message_id, lastAttempt: i.attempt.retryCount >= i.attempt.retryLimit })),
    ),
  ),
  // From the start, not from the first batch: a worker started after another died takes its batches over.
  background: (services) => engineOf(services),
};

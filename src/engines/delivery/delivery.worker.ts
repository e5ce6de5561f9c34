import type { AppServices } from '../../core/services.js';
import { defineBatchWorker } from '../../jobs/job.js';
import { deliverBatch } from './delivery.batch.js';
import { deliverJob } from '../../modules/sending/deliver.job.js';

export const deliverWorker = defineBatchWorker(deliverJob, (items, services: AppServices) =>
  deliverBatch(
    services,
    items.map((i) => ({ messageId: i.data.message_id, retryCount: i.attempt.retryCount, retryLimit: i.attempt.retryLimit })),
  ),
);

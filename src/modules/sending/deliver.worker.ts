import { defineBatchWorker } from '../../jobs/job.js';
import { deliverBatch } from './deliver.js';
import { deliverJob } from './deliver.job.js';

export const deliverWorker = defineBatchWorker(deliverJob, (items, services) =>
  deliverBatch(
    services,
    items.map((i) => ({ messageId: i.data.message_id, retryCount: i.attempt.retryCount, retryLimit: i.attempt.retryLimit })),
  ),
);

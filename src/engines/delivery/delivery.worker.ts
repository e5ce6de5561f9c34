import type { AppServices } from '../../core/services.js';
import type { FetchingWorker } from '../../jobs/job.js';
import { deliverJob } from '../../modules/sending/deliver.job.js';
import { deliveryLoop } from './delivery.loop.js';

/**
 * Delivery fetches its own jobs (delivery.loop.ts), from the worker's start: a worker started
 * after another died takes that one's batches over even before any job of its own comes.
 */
export const deliverWorker: FetchingWorker<AppServices> = {
  job: deliverJob,
  fetching: (services) => deliveryLoop(services),
};

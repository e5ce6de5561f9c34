import { defineWorker } from '../../jobs/job.js';
import { deliverMessage } from './deliver.js';
import { deliverJob } from './deliver.job.js';

export const deliverWorker = defineWorker(deliverJob, (data, services, attempt) => deliverMessage(services, data.message_id, attempt));

import { defineWorker } from '../../jobs/job.js';
import { sendSmsMessage } from './deliver.js';
import { smsSendJob } from './send.job.js';

export const smsSendWorker = defineWorker(smsSendJob, (data, services, attempt) => sendSmsMessage(services, data.sms_message_id, attempt));

import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { sendSmsMessage } from './sms.deliver.js';
import { smsSendJob } from './send.job.js';

export const smsSendWorker = defineWorker(smsSendJob, (data, services: AppServices, attempt) => sendSmsMessage(services, data.sms_message_id, attempt));

import { defineJob } from '../../jobs/job.js';
import { sendSmsMessage } from './deliver.js';

/**
 * Sends the queued texts of one SMS message through the provider. A provider that is down or
 * throttling (a retryable error) fails the job on purpose, so pg-boss retries it with backoff;
 * texts already handed over are never sent again, and the last attempt fails what is left.
 */
export const smsSendJob = defineJob<{ sms_message_id: string }>({
  name: 'sms.send',
  batchSize: 10,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 600,
  perform: (data, services, attempt) => sendSmsMessage(services, data.sms_message_id, attempt),
});

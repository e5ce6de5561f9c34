import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * Sends the queued texts of one SMS message through the provider. A provider that is down or
 * throttling (a retryable error) fails the job on purpose, so pg-boss retries it with backoff;
 * texts already handed over are never sent again, and the last attempt fails what is left.
 */
export const smsSendJob = defineJob({
  name: 'sms.send',
  schema: z.object({ sms_message_id: z.string() }),
  batchSize: 10,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 600,
});

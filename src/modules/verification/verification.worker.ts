import { defineWorker } from '../../jobs/job.js';
import { verificationJob } from './verification.job.js';
import { completeAsyncVerification } from './verification.service.js';

export const verificationWorker = defineWorker(verificationJob, async (data, services, attempt) => {
  try {
    await completeAsyncVerification(services, data.verification_id);
  } catch (err) {
    if (attempt.retryCount < attempt.retryLimit) throw err;
    services.log.error({ err, verification_id: data.verification_id }, 'verification gave up');
    await completeAsyncVerification(services, data.verification_id, 'The verification could not be completed.');
  }
});

import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { verificationJob } from '../../modules/verification/verification.job.js';
import { completeAsyncVerification } from './async-check.js';

export const verificationWorker = defineWorker(verificationJob, async (data, services: AppServices, attempt) => {
  try {
    await completeAsyncVerification(services, data.verification_id);
  } catch (err) {
    if (attempt.retryCount < attempt.retryLimit) throw err;
    services.log.error({ err, verification_id: data.verification_id }, 'verification gave up');
    await completeAsyncVerification(services, data.verification_id, 'The verification could not be completed.');
  }
});

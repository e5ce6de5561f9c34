import { defineJob } from '../../jobs/job.js';

/** Checks one verify-async address. The check's own time budget bounds each attempt. */
export const verificationJob = defineJob<{ verification_id: string }>({
  name: 'email-verification.verify',
  retryLimit: 3,
  retryDelay: 30,
  batchSize: 1,
  // Probes mostly wait on remote servers, so several run side by side (per-host limits still apply).
  concurrency: () => 4,
  async perform(data, services, attempt) {
    const { completeAsyncVerification } = await import('./verification.service.js');
    try {
      await completeAsyncVerification(services, data.verification_id);
    } catch (err) {
      if (attempt.retryCount < attempt.retryLimit) throw err;
      services.log.error({ err, verification_id: data.verification_id }, 'verification gave up');
      await completeAsyncVerification(services, data.verification_id, 'The verification could not be completed.');
    }
  },
});

import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/** Checks one verify-async address. The check's own time budget bounds each attempt. */
export const verificationJob = defineJob({
  name: 'email-verification.verify',
  schema: z.object({ verification_id: z.string() }),
  retryLimit: 3,
  retryDelay: 30,
  batchSize: 1,
  // Probes mostly wait on remote servers, so several run side by side (per-host limits still apply).
  concurrency: () => 4,
});

import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { PermanentMailError } from './smtp-transport.js';
import { systemMailJob } from './system-mail.job.js';

export const systemMailWorker = defineWorker(systemMailJob, async (mail, services: AppServices) => {
  try {
    await services.mail.send(mail);
  } catch (err) {
    // A 5xx will be refused again: log it once instead of retrying for hours.
    if (err instanceof PermanentMailError) {
      services.log.warn({ err, to: mail.to }, 'system mail refused permanently');
      return;
    }
    throw err;
  }
});

import { defineJob } from '../../jobs/job.js';
import { PermanentMailError } from './smtp-transport.js';
import type { OutgoingMail } from './transport.js';

/** Mail the service writes itself goes out through a job, enqueued with the write that causes it. */
export const systemMailJob = defineJob<OutgoingMail>({
  name: 'system-mail.send',
  retryLimit: 8,
  retryDelay: 30,
  async perform(mail, services) {
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
  },
});

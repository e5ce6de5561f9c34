import { defineJob } from '../../jobs/job.js';
import type { OutgoingMail } from './transport.js';

/** Mail the service writes itself goes out through a job, enqueued with the write that causes it. */
export const systemMailJob = defineJob<OutgoingMail>({
  name: 'system-mail.send',
  retryLimit: 8,
  retryDelay: 30,
  async perform(mail, services) {
    await services.mail.send(mail);
  },
});

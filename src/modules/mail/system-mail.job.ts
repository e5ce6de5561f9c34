import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';
import type { OutgoingMail } from './transport.js';

/** Every field of OutgoingMail, no more: a field added there and not here would be dropped when queued. */
const mail = {
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  kind: z.string().optional(),
  account_id: z.string().optional(),
  domain_id: z.string().optional(),
} satisfies Record<keyof OutgoingMail, z.ZodType>;

/** Mail the service writes itself goes out through a job, enqueued with the write that causes it. */
export const systemMailJob = defineJob({
  name: 'system-mail.send',
  schema: z.object(mail) satisfies z.ZodType<OutgoingMail>,
  retryLimit: 8,
  retryDelay: 30,
});

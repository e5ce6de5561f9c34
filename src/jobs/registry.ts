import type { JobDefinition } from './job.js';
import { systemMailJob } from '../modules/mail/system-mail.job.js';
import { domainRecheckJob } from '../modules/domains/domain-check.job.js';
import { deliverJob } from '../modules/sending/deliver.job.js';
import { bulkJob } from '../modules/bulk/bulk.job.js';
import { sendingPurgeJob } from '../modules/sending/purge.job.js';
import { blocklistInitialCheckJob, blocklistRecheckJob, blocklistWebhookJob } from '../modules/blocklist/blocklist.job.js';
import { dmarcRecheckJob, dmarcResolveIpsJob } from '../modules/dmarc/dmarc.job.js';
import { webhookTickJob } from '../modules/webhooks/dispatch.job.js';
import { verificationJob } from '../modules/verification/verification.job.js';
import { verificationListJob } from '../modules/verification/list.job.js';
import { smsSendJob } from '../modules/sms/send.job.js';

/**
 * Every job's definition: `createBoss` makes their queues in every process, so any role can
 * enqueue. Definitions import no service; the handlers are bound in workers.ts.
 */
export const jobs: readonly JobDefinition[] = [
  systemMailJob,
  domainRecheckJob,
  deliverJob,
  bulkJob,
  sendingPurgeJob,
  webhookTickJob,
  verificationJob,
  verificationListJob,
  blocklistInitialCheckJob,
  blocklistRecheckJob,
  blocklistWebhookJob,
  dmarcRecheckJob,
  dmarcResolveIpsJob,
  smsSendJob,
];

import type { JobDefinition } from '../jobs/job.js';
import { systemMailJob } from './mail/system-mail.job.js';
import { domainRecheckJob } from './domains/domain-check.job.js';
import { deliverJob } from './sending/deliver.job.js';
import { sendingPurgeJob } from './sending/purge.job.js';
import { bulkJob } from './bulk/bulk.job.js';
import { webhookTickJob } from './webhooks/dispatch.job.js';
import { verificationJob } from './verification/verification.job.js';
import { verificationListJob } from './verification/list.job.js';
import { blocklistInitialCheckJob, blocklistRecheckJob, blocklistWebhookJob } from './blocklist/blocklist.job.js';
import { dmarcRecheckJob, dmarcResolveIpsJob } from './dmarc/dmarc.job.js';
import { smsSendJob } from './sms/send.job.js';
import { retentionPurgeJob } from './retention/retention.job.js';
import { tlsReportJob } from './tls-reports/tls-report.job.js';

/**
 * Every job's definition: every role makes their queues, so any role may enqueue. Producers
 * import a definition, never this list; the handlers are the worker role's (src/roles/worker.ts).
 */
export const jobDefinitions: readonly JobDefinition[] = [
  systemMailJob,
  domainRecheckJob,
  deliverJob,
  sendingPurgeJob,
  bulkJob,
  webhookTickJob,
  verificationJob,
  verificationListJob,
  blocklistInitialCheckJob,
  blocklistRecheckJob,
  blocklistWebhookJob,
  dmarcRecheckJob,
  dmarcResolveIpsJob,
  smsSendJob,
  retentionPurgeJob,
  tlsReportJob,
];

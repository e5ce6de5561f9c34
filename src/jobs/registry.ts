import type { JobDef } from './job.js';
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

/** Every background job; `startWorkers` works them all and schedules the cron ones. */
export const jobs: JobDef<never>[] = [systemMailJob as JobDef<never>, domainRecheckJob as JobDef<never>, deliverJob as JobDef<never>, bulkJob as JobDef<never>, sendingPurgeJob as JobDef<never>, webhookTickJob as JobDef<never>, verificationJob as JobDef<never>, verificationListJob as JobDef<never>, blocklistInitialCheckJob as JobDef<never>, blocklistRecheckJob as JobDef<never>, blocklistWebhookJob as JobDef<never>, dmarcRecheckJob as JobDef<never>, dmarcResolveIpsJob as JobDef<never>, smsSendJob as JobDef<never>];

import type { RegisteredWorker } from '../jobs/job.js';
import type { AppServices } from '../core/services.js';
import { systemMailWorker } from './mail/system-mail.worker.js';
import { domainRecheckWorker } from './domains/domain-check.worker.js';
import { sendingPurgeWorker } from './sending/purge.worker.js';
import { bulkWorker } from './bulk/bulk.worker.js';
import { blocklistInitialCheckWorker, blocklistRecheckWorker, blocklistWebhookWorker } from './blocklist/blocklist.worker.js';
import { smsSendWorker } from './sms/send.worker.js';
import { retentionPurgeWorker } from './retention/retention.worker.js';
import { tlsReportWorker } from './tls-reports/tls-report.worker.js';

/** The handlers of the modules' own jobs, started by the worker role only (with the engines'). */
export const moduleWorkers: readonly RegisteredWorker<AppServices>[] = [
  systemMailWorker,
  domainRecheckWorker,
  sendingPurgeWorker,
  bulkWorker,
  blocklistInitialCheckWorker,
  blocklistRecheckWorker,
  blocklistWebhookWorker,
  smsSendWorker,
  retentionPurgeWorker,
  tlsReportWorker,
];

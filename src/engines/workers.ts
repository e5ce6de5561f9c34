import type { RegisteredWorker } from '../jobs/job.js';
import type { AppServices } from '../core/services.js';
import { deliverWorker } from './delivery/delivery.worker.js';
import { webhookTickWorker } from './webhooks/webhook.worker.js';
import { verificationWorker } from './verification/verification.worker.js';
import { verificationListWorker } from './verification/list.worker.js';
import { dmarcRecheckWorker, dmarcResolveIpsWorker } from './dmarc/dmarc.worker.js';

/**
 * The handlers of the jobs the engines run (their definitions belong to the modules that enqueue
 * them), started by the worker role only. The SMTP listener and inbound routing run in the smtp
 * role (src/roles/smtp.ts) and bring no workers.
 */
export const engineWorkers: readonly RegisteredWorker<AppServices>[] = [
  deliverWorker,
  webhookTickWorker,
  verificationWorker,
  verificationListWorker,
  dmarcRecheckWorker,
  dmarcResolveIpsWorker,
];

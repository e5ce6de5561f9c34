import type { EngineManifest } from '../engine.js';
import { WebhookDispatchLease } from './dispatch-lease.entity.js';
import { webhookTickWorker } from './webhook.worker.js';

export const webhooksEngine: EngineManifest = {
  name: 'webhooks',
  entities: [WebhookDispatchLease],
  workers: [webhookTickWorker],
};

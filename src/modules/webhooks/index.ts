import type { ModuleManifest } from '../module.js';
import { Webhook, WebhookDelivery, WebhookAttempt } from './webhook.entity.js';
import { WebhookDispatchLease } from './dispatch-lease.entity.js';
import { WebhookResolver } from './webhook.resolver.js';
import { WebhookLogResolver } from './log.resolver.js';
import { WebhookStreamResolver } from './stream.resolver.js';
import { webhookTickJob } from './dispatch.job.js';
import { webhookTickWorker } from './dispatch.worker.js';
import { webhookRoutes } from './webhook.rest.js';
import { webhookLogRoutes } from './log.rest.js';

export const webhooksModule: ModuleManifest = {
  name: 'webhooks',
  entities: [Webhook, WebhookDelivery, WebhookAttempt, WebhookDispatchLease],
  resolvers: [WebhookResolver, WebhookLogResolver, WebhookStreamResolver],
  jobs: [webhookTickJob],
  workers: [webhookTickWorker],
  rest: [
    { name: 'Webhooks', description: 'Email webhooks, their delivery log and replays.', routes: { ...webhookRoutes, ...webhookLogRoutes } },
  ],
};

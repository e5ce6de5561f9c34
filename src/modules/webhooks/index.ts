import type { ModuleManifest } from '../module.js';
import { Webhook, WebhookDelivery, WebhookAttempt } from './webhook.entity.js';
import { WebhookResolver } from './webhook.resolver.js';
import { WebhookLogResolver } from './log.resolver.js';
import { WebhookStreamResolver } from './stream.resolver.js';
import { webhookTickJob } from './dispatch.job.js';
import { webhookRoutes } from './webhook.rest.js';
import { webhookLogRoutes } from './log.rest.js';

export const webhooksModule: ModuleManifest = {
  name: 'webhooks',
  entities: [Webhook, WebhookDelivery, WebhookAttempt],
  resolvers: [WebhookResolver, WebhookLogResolver, WebhookStreamResolver],
  jobs: [webhookTickJob],
  rest: [
    { name: 'Webhooks', description: 'Email webhooks, their delivery log and replays.', routes: { ...webhookRoutes, ...webhookLogRoutes } },
  ],
};

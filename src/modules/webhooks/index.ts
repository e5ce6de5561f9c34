import type { ModuleManifest } from '../module.js';
import { WebhookResolver } from './webhook.resolver.js';
import { WebhookLogResolver } from './log.resolver.js';
import { WebhookStreamResolver } from './stream.resolver.js';
import { webhookRoutes } from './webhook.rest.js';
import { webhookLogRoutes } from './log.rest.js';

export const webhooksModule: ModuleManifest = {
  name: 'webhooks',
  resolvers: [WebhookResolver, WebhookLogResolver, WebhookStreamResolver],
  rest: [
    { name: 'Webhooks', description: 'Email webhooks, their delivery log and replays.', routes: { ...webhookRoutes, ...webhookLogRoutes } },
  ],
};

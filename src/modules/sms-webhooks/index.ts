import type { ModuleManifest } from '../module.js';
import { SmsWebhookResolver } from './sms-webhook.resolver.js';
import { smsWebhookRoutes } from './sms-webhook.rest.js';

export const smsWebhooksModule: ModuleManifest = {
  name: 'sms-webhooks',
  resolvers: [SmsWebhookResolver],
  rest: [
    { name: 'SMS webhooks', description: 'SMS webhooks.', routes: smsWebhookRoutes },
  ],
};

import type { ModuleManifest } from '../module.js';
import { SmsInboundResolver } from './sms-inbound.resolver.js';
import { registerSmsInboundRoutes } from './sms-inbound.routes.js';
import { smsInboundRoutes } from './sms-inbound.rest.js';

export const smsInboundModule: ModuleManifest = {
  name: 'sms-inbound',
  resolvers: [SmsInboundResolver],
  routes: registerSmsInboundRoutes,
  rest: [
    { name: 'SMS inbound routes', description: 'Routes that forward received SMS to a URL.', routes: smsInboundRoutes },
  ],
};

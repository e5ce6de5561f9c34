import type { ModuleManifest } from '../module.js';
import { SmsNumberResolver } from './sms-number.resolver.js';
import { smsNumberRoutes } from './sms-number.rest.js';

export const smsNumbersModule: ModuleManifest = {
  name: 'sms-numbers',
  resolvers: [SmsNumberResolver],
  rest: [
    { name: 'SMS numbers', description: 'Phone numbers the account sends SMS from.', routes: smsNumberRoutes },
  ],
};

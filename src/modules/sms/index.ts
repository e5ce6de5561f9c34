import type { ModuleManifest } from '../module.js';
import { smsNumberResumed } from '../sms-numbers/sms-number.events.js';
import { sendOnNumberResumed } from './send.service.js';
import { SmsSendResolver } from './send.resolver.js';
import { SmsMessageResolver } from './messages.resolver.js';
import { SmsActivityResolver } from './activity.resolver.js';
import { SmsRecipientResolver } from './recipients.resolver.js';
import { registerSmsProviderRoutes } from './provider.routes.js';
import { smsRoutes, smsMessageRoutes, smsActivityRoutes, smsRecipientRoutes } from './sms.rest.js';

// Work that belongs to sms but starts in a module below it.
smsNumberResumed.on(sendOnNumberResumed);

export const smsModule: ModuleManifest = {
  name: 'sms',
  resolvers: [SmsSendResolver, SmsMessageResolver, SmsActivityResolver, SmsRecipientResolver],
  routes: registerSmsProviderRoutes,
  rest: [
    { name: 'SMS', description: 'Sending SMS.', routes: smsRoutes },
    { name: 'SMS messages', description: 'Sent SMS messages.', routes: smsMessageRoutes },
    { name: 'SMS activity', description: 'SMS events.', routes: smsActivityRoutes },
    { name: 'SMS recipients', description: 'Numbers the account has texted, and their opt-out state.', routes: smsRecipientRoutes },
  ],
};

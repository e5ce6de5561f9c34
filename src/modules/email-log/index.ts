import type { ModuleManifest } from '../module.js';
import { EmailLogResolver } from './email.resolver.js';
import { CapturedEmailResolver } from './captured.resolver.js';
import { MessageResolver } from './message.resolver.js';
import { emailLogRoutes, messageRoutes } from './email-log.rest.js';
import { scheduleRoutes } from './schedule.rest.js';

export const emailLogModule: ModuleManifest = {
  name: 'email-log',
  resolvers: [EmailLogResolver, CapturedEmailResolver, MessageResolver],
  // SPEC.md's single email has no webhook deliveries; the console's email page reads them on GraphQL.
  hiddenOnRest: ['LoggedEmailDetail.webhook_deliveries', 'LoggedEmailDetail.last_response', 'LoggedEmailDetail.diagnosis'],
  rest: [
    { name: 'Email log', description: 'The email log: each email with its status and activity.', routes: emailLogRoutes },
    { name: 'Messages', description: 'Accepted sends.', routes: messageRoutes },
    { name: 'Schedules', description: 'Messages scheduled with send_at.', routes: scheduleRoutes },
  ],
};

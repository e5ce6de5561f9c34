import type { ModuleManifest } from '../module.js';
import { Activity } from './activity.entity.js';
import { ActivityStreamResolver } from './activity-stream.resolver.js';
import { ActivityResolver } from './activity.resolver.js';
import { activityRoutes } from './activity.rest.js';

export const activityModule: ModuleManifest = {
  name: 'activity',
  resolvers: [ActivityStreamResolver, ActivityResolver],
  // MailerSend's activity has no such field: /v1 answers as it does.
  hiddenOnRest: ['ActivityEntry.diagnosis', 'ActivityEntry.tls_policy'],
  rest: [
    { name: 'Activity', description: 'Email events of a domain.', routes: activityRoutes },
  ],
};

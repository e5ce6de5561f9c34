import type { ModuleManifest } from '../module.js';
import { SmtpUserResolver } from './smtp-user.resolver.js';
import { smtpUserRoutes } from './smtp-user.rest.js';

export const smtpUsersModule: ModuleManifest = {
  name: 'smtp-users',
  resolvers: [SmtpUserResolver],
  rest: [
    { name: 'SMTP users', description: 'SMTP relay credentials of a domain.', routes: smtpUserRoutes },
  ],
};

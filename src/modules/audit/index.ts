import type { ModuleManifest } from '../module.js';
import { AuditEventResolver } from './audit-event.resolver.js';
import { auditRoutes } from './audit.rest.js';

export const auditModule: ModuleManifest = {
  name: 'audit',
  resolvers: [AuditEventResolver],
  rest: [
    { name: 'Audit events', description: 'Changes to tokens, SMTP users, webhooks, SMS webhooks and users.', routes: auditRoutes },
  ],
};

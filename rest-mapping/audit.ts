import type { RouteTable } from './types.js';

export const auditRoutes: RouteTable = {
  'Query.audit_events': { method: 'GET', path: '/audit-events', envelope: 'paged' },
};

import type { RouteTable } from '../../../rest-mapping/types.js';

export const auditRoutes: RouteTable = {
  'Query.audit_events': { method: 'GET', path: '/audit-events', envelope: 'paged' },
};

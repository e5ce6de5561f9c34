import type { RouteTable } from '../../../rest-mapping/types.js';

/** Activity uses the simple pager: its `meta` has no `last_page` or `total` (SPEC.md Conventions). */
export const activityRoutes: RouteTable = {
  'Query.activities': { method: 'GET', path: '/activity/:domain_id', envelope: 'paged', omitNull: ['suppression_reason'] },
  'Query.activity': { method: 'GET', path: '/activities/:activity_id', envelope: 'data', omitNull: ['suppression_reason'] },
};

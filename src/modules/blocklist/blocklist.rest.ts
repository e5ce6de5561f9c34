import type { RouteTable } from '../../../rest-mapping/types.js';

// SPEC.md "only when": children_count on ranges, hits on single addresses, children on ranges.
const omitNull = ['children_count', 'hits', 'children', 'forwards.secret'];

export const blocklistRoutes: RouteTable = {
  'Query.blocklist_monitors': { method: 'GET', path: '/blocklist-monitoring', envelope: 'data', omitNull },
  'Query.blocklist_monitor': { method: 'GET', path: '/blocklist-monitoring/:monitor_id', envelope: 'data', omitNull },
  'Mutation.create_blocklist_monitor': { method: 'POST', path: '/blocklist-monitoring', status: 201, envelope: 'data', omitNull },
  'Mutation.update_blocklist_monitor': { method: 'PUT', path: '/blocklist-monitoring/:monitor_id', envelope: 'data', omitNull },
  'Mutation.delete_blocklist_monitor': { method: 'DELETE', path: '/blocklist-monitoring/:monitor_id', status: 204, envelope: 'none' },
};

import type { RouteTable } from './types.js';

export const dmarcRoutes: RouteTable = {
  'Query.dmarc_monitors': { method: 'GET', path: '/dmarc-monitoring', envelope: 'data' },
  'Mutation.create_dmarc_monitor': { method: 'POST', path: '/dmarc-monitoring', status: 201, envelope: 'data' },
  'Mutation.update_dmarc_monitor': { method: 'PUT', path: '/dmarc-monitoring/:monitor_id', envelope: 'data' },
  'Mutation.delete_dmarc_monitor': { method: 'DELETE', path: '/dmarc-monitoring/:monitor_id', status: 204, envelope: 'none' },
};

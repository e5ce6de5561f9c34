import type { RouteTable } from '../../../rest-mapping/types.js';

export const bulkEmailRoutes: RouteTable = {
  'Mutation.send_bulk_email': { method: 'POST', path: '/bulk-email', status: 202, envelope: 'raw', arrayBody: 'emails' },
  'Query.bulk_email': { method: 'GET', path: '/bulk-email/:bulk_email_id', envelope: 'data' },
};

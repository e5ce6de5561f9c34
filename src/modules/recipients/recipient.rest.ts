import type { RouteTable } from '../../../rest-mapping/types.js';

export const recipientRoutes: RouteTable = {
  'Query.recipients': { method: 'GET', path: '/recipients', envelope: 'paged' },
  'Query.recipient': { method: 'GET', path: '/recipients/:recipient_id', envelope: 'data' },
  'Mutation.delete_recipient': { method: 'DELETE', path: '/recipients/:recipient_id', status: 204, envelope: 'none' },
};

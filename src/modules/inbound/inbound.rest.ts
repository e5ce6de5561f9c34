import type { RouteTable } from '../../../rest-mapping/types.js';

// Email forwards have no secret: the key is left out rather than sent as null.
const omitNull = ['forwards.secret'];

export const inboundRoutes: RouteTable = {
  // The full pager (COMPAT.md Pagers); GraphQL's `inbounds` stays the plain list.
  'Query.inbounds_page': { method: 'GET', path: '/inbound', envelope: 'paged', omitNull },
  'Query.inbound': { method: 'GET', path: '/inbound/:inbound_id', envelope: 'data', omitNull },
  'Mutation.create_inbound': { method: 'POST', path: '/inbound', status: 201, envelope: 'data', omitNull },
  'Mutation.update_inbound': { method: 'PUT', path: '/inbound/:inbound_id', envelope: 'data', omitNull },
  'Mutation.delete_inbound': { method: 'DELETE', path: '/inbound/:inbound_id', status: 204, envelope: 'none' },
};

import type { RouteTable } from '../../../rest-mapping/types.js';

export const tokenRoutes: RouteTable = {
  // The full pager (COMPAT.md Pagers); GraphQL's `tokens` stays the plain list.
  'Query.tokens_page': { method: 'GET', path: '/token', envelope: 'paged' },
  'Query.token': { method: 'GET', path: '/token/:token_id', envelope: 'data' },
  // This API family answers token creation with 200, not 201 (COMPAT.md).
  'Mutation.create_token': { method: 'POST', path: '/token', status: 200, envelope: 'data' },
  'Mutation.update_token': { method: 'PUT', path: '/token/:token_id', envelope: 'data' },
  'Mutation.update_token_settings': { method: 'PUT', path: '/token/:token_id/settings', envelope: 'data' },
  'Mutation.delete_token': { method: 'DELETE', path: '/token/:token_id', status: 204, envelope: 'none' },
};

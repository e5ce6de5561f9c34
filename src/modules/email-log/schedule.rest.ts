import type { RouteTable } from '../../../rest-mapping/types.js';

export const scheduleRoutes: RouteTable = {
  // The full pager (COMPAT.md Pagers); GraphQL's `message_schedules` stays the plain list.
  'Query.message_schedules_page': { method: 'GET', path: '/message-schedules', envelope: 'paged' },
  'Query.message_schedule': { method: 'GET', path: '/message-schedules/:message_id', envelope: 'data' },
  'Mutation.delete_message_schedule': { method: 'DELETE', path: '/message-schedules/:message_id', status: 204, envelope: 'none' },
};

import type { RouteTable } from '../../../rest-mapping/types.js';

export const scheduleRoutes: RouteTable = {
  'Query.message_schedules': { method: 'GET', path: '/message-schedules', envelope: 'data' },
  'Query.message_schedule': { method: 'GET', path: '/message-schedules/:message_id', envelope: 'data' },
  'Mutation.delete_message_schedule': { method: 'DELETE', path: '/message-schedules/:message_id', status: 204, envelope: 'none' },
};

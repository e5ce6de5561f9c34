import type { RouteTable } from '../../../rest-mapping/types.js';

// PUT takes `paused` from the query string (SPEC.md) or the JSON body (what the SDK sends).
export const smsNumberRoutes: RouteTable = {
  // The full pager (COMPAT.md Pagers); GraphQL's `sms_numbers` stays the plain list.
  'Query.sms_numbers_page': { method: 'GET', path: '/sms-numbers', envelope: 'paged' },
  'Query.sms_number': { method: 'GET', path: '/sms-numbers/:sms_number_id', envelope: 'data' },
  'Mutation.update_sms_number': { method: 'PUT', path: '/sms-numbers/:sms_number_id', envelope: 'data' },
  'Mutation.delete_sms_number': { method: 'DELETE', path: '/sms-numbers/:sms_number_id', status: 204, envelope: 'none' },
};

import type { RouteTable } from '../../../rest-mapping/types.js';

// Only the single-route answer carries the number (SPEC.md "SMS inbound route").
const omitNull = ['sms_number'];

export const smsInboundRoutes: RouteTable = {
  'Query.sms_inbounds': { method: 'GET', path: '/sms-inbounds', envelope: 'data', omitNull },
  'Query.sms_inbound': { method: 'GET', path: '/sms-inbounds/:sms_inbound_id', envelope: 'data' },
  'Mutation.create_sms_inbound': { method: 'POST', path: '/sms-inbounds', status: 201, envelope: 'data', omitNull },
  'Mutation.update_sms_inbound': { method: 'PUT', path: '/sms-inbounds/:sms_inbound_id', envelope: 'data', omitNull },
  'Mutation.delete_sms_inbound': { method: 'DELETE', path: '/sms-inbounds/:sms_inbound_id', status: 204, envelope: 'none' },
};

import type { RouteTable } from '../../../rest-mapping/types.js';

/** COMPAT.md: 202 with an empty body and the message id in `x-sms-message-id`. */
function sendAnswer(r: { sms_message_id: string }) {
  return { status: 202, headers: { 'x-sms-message-id': r.sms_message_id, 'content-type': 'text/plain; charset=utf-8' }, body: '' };
}

const sendDoc = {
  description: 'Accepted: an empty body; the texts are sent in the background.',
  headers: { 'x-sms-message-id': { description: 'The id of GET /v1/sms-messages/{sms_message_id}.', schema: { type: 'string' } } },
  content: { 'text/plain': { schema: { type: 'string', maxLength: 0 } } },
};

export const smsRoutes: RouteTable = {
  'Mutation.send_sms': { method: 'POST', path: '/sms', status: 202, envelope: 'raw', respond: sendAnswer, responseDoc: sendDoc },
};

export const smsMessageRoutes: RouteTable = {
  // The full pager (COMPAT.md Pagers); GraphQL's `sms_messages` stays the plain list.
  'Query.sms_messages_page': { method: 'GET', path: '/sms-messages', envelope: 'paged' },
  'Query.sms_message': { method: 'GET', path: '/sms-messages/:sms_message_id', envelope: 'data' },
};

export const smsActivityRoutes: RouteTable = {
  'Query.sms_activity': { method: 'GET', path: '/sms-activity', envelope: 'data' },
};

export const smsRecipientRoutes: RouteTable = {
  'Query.sms_recipients': { method: 'GET', path: '/sms-recipients', envelope: 'data' },
  'Query.sms_recipient': { method: 'GET', path: '/sms-recipients/:sms_recipient_id', envelope: 'data' },
  'Mutation.update_sms_recipient': { method: 'PUT', path: '/sms-recipients/:sms_recipient_id', envelope: 'data' },
};

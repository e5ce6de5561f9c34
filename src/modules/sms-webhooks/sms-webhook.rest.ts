import type { RouteTable } from '../../../rest-mapping/types.js';

/** Paths as the mailersend SDK calls them (ms.sms.webhook.*); SPEC.md gives the list no pager. */
export const smsWebhookRoutes: RouteTable = {
  'Query.sms_webhooks': { method: 'GET', path: '/sms-webhooks', envelope: 'data' },
  'Query.sms_webhook': { method: 'GET', path: '/sms-webhooks/:sms_webhook_id', envelope: 'data' },
  'Mutation.create_sms_webhook': { method: 'POST', path: '/sms-webhooks', status: 201, envelope: 'data' },
  'Mutation.update_sms_webhook': { method: 'PUT', path: '/sms-webhooks/:sms_webhook_id', envelope: 'data' },
  'Mutation.delete_sms_webhook': { method: 'DELETE', path: '/sms-webhooks/:sms_webhook_id', status: 204, envelope: 'none' },
};
